#include "properties/pullback/rule_pattern.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "properties/core/term_view.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "syntax/pullback/parser.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback {

// seed 000 Fig. 1: λx.S, (λx.S₁)*·S₂ and (Ω λx.P)·S bind x in their first child only; let x = M
// in N binds x in N.
int TermView::bound_child(Kind k) {
  switch (k) {
  case Kind::lam:
  case Kind::dualmap:
  case Kind::pullback:
    return 0;
  case Kind::let:
    return 1;
  default:
    return -1;
  }
}

bool TermView::bound(const Scope& s, const std::string& x) {
  return adsem::rules::has_var(s.visible, x);
}

std::optional<TermView::Scope> TermView::enter(const Term& t, std::size_t i, const Scope& s) {
  if (bound_child(t->kind) != static_cast<int>(i)) return std::nullopt;
  Scope inner = s;
  inner.visible.emplace_back(t->name, t->type);
  if (t->kind == Kind::dualmap) inner.dual = {t->name, t->type};
  return inner;
}

Term TermView::rebuild(const Term& t, std::vector<Term> kids) {
  Node copy = *t;
  copy.kids = std::move(kids);
  return make_node(std::move(copy));
}

namespace {

constexpr TermView view;

[[noreturn]] void fail_at(const adsem::rules::Fragment& side, const Node& n, ErrorKind kind,
                          const std::string& message) {
  throw AdsemError(kind, message, n.pos.line > 0 ? adsem::rules::locate(side, n.pos) : side.pos);
}

// Parses one side; an unbound name is the rule language's located error `unbound(name, pos)`.
template <class Unbound>
Term parse_side(const adsem::rules::Fragment& side, const std::map<std::string, Type>& free,
                Unbound unbound, bool transformation_calls = false) {
  ParseOptions o;
  o.signature = signature();
  if (transformation_calls)
    o.signature = [paper = o.signature](const std::string& f) -> std::optional<PrimitiveInfo> {
      if (f == anf_call) return PrimitiveInfo{f, arrow(any_type(), any_type())};
      return paper(f);
    };
  o.free = free;
  return adsem::rules::parse_reporting_unbound(
      side, [&] { return parse_term(side.text, o); }, unbound);
}

// A representative term of type ty linear in x : sigma (x itself, its atoms, pairs of them), for
// checking the schema's linearity condition; nullopt when ty is not built from x's components.
std::optional<Term> linear_representative(const Type& ty, const std::string& x, const Type& sigma) {
  if (same_type(ty, sigma)) return var(x, sigma);
  if (!is_euclidean(ty) || !is_euclidean(sigma)) return std::nullopt;
  if (is_real(ty)) return real_atom(var(x, sigma), sigma);
  const auto a = linear_representative(ty->left, x, sigma);
  const auto b = linear_representative(ty->right, x, sigma);
  if (!a || !b) return std::nullopt;
  return pair(*a, *b);
}

// ANF(P) parsed as a primitive of signature _ ⇒ _: its signature becomes T ⇒ T, T the type of P.
Term typed_transformation_calls(const Term& m) {
  if (m->kids.empty()) return m;
  Node copy = *m;
  for (Term& k : copy.kids)
    k = typed_transformation_calls(k);
  if (copy.kind == Kind::prim && copy.name == anf_call) {
    const Type t = type_of(copy.kids[0]);
    copy.type = arrow(t, t);
  }
  return make_node(std::move(copy));
}

void collect_metas(const adsem::rules::RuleDecl& rule, Pattern& p,
                   const std::map<std::string, Type>& declared) {
  std::vector<int> path;
  adsem::rules::each_free(
      view, p.lhs, {}, path, [&](const Term& t, const TermView::Scope& scope, const auto&) {
        const Node& n = *t;
        const VarScope& vis = scope.visible;
        const auto& dual = scope.dual;
        if (!declared.contains(n.name)) return; // the parser resolved every other name
        auto it = std::ranges::find_if(p.metas, [&](const auto& m) { return m.name == n.name; });
        if (it == p.metas.end()) {
          p.metas.push_back(Metavariable{n.name, declared.at(n.name), vis, dual});
          return;
        }
        it->binders = adsem::rules::intersect_scopes(it->binders, vis, same_type);
        const bool same_dual = (!dual && !it->linear_in) ||
                               (dual && it->linear_in && dual->first == it->linear_in->first);
        if (!same_dual)
          fail_at(rule.lhs, n, ErrorKind::parse,
                  fmt::format("metavariable '{}' occurs in the body of a dual map and "
                              "elsewhere: in a dual-map body (λx.S)* its instances must be "
                              "linear in x (rule (dual), seed 000 Fig. 2), so one term "
                              "cannot fill both places; use two metavariables",
                              n.name));
      });
  adsem::rules::sort_by_declaration(p.metas, rule);
}

// A metavariable freed of the dual map's variable (`x # M`) need no longer be linear in it.
void apply_conditions(const adsem::rules::RuleDecl& rule, Pattern& p) {
  adsem::rules::apply_conditions(
      rule, p.metas, [](const adsem::rules::Fragment& f) { return parse_type(f.text); }, same_type,
      [](const Type& t) { return type_text(t); }, "pullback types are monomorphic");
  for (const adsem::rules::Condition& c : rule.conditions)
    for (Metavariable& m : p.metas)
      if (c.kind == adsem::rules::Condition::Kind::not_free && m.name == c.right.text &&
          m.linear_in && m.linear_in->first == c.left.text)
        m.linear_in.reset();
}

// The schema's typing: both sides structurally (metavariables at their declared types), then the
// (dual) rule's linearity condition with every metavariable that must be linear replaced by a
// representative linear term: strict lin on the left (a source program), lin⁺ on the right (a
// reduct, spec §3.2 ID-3, as the calculus's subject reduction checks reducts).
void check_types(const adsem::rules::RuleDecl& rule, Pattern& p) {
  const Type left = adsem::rules::within(rule.lhs, [&] {
    return typecheck(p.lhs, Context(p.gamma.begin(), p.gamma.end()), LinMode::structural);
  });
  p.rhs = annotate_zeros(p.rhs, left);
  const Type right = adsem::rules::within(rule.rhs, [&] {
    return typecheck(p.rhs, Context(p.gamma.begin(), p.gamma.end()), LinMode::structural);
  });
  if (!same_type(left, right) || is_any(left))
    adsem::rules::fail_sides_differ(rule, type_text(left), type_text(right));
  p.type = left;
  std::map<std::string, Term> reps;
  for (const Metavariable& m : p.metas) {
    if (!m.linear_in) continue;
    const auto rep = linear_representative(m.type, m.linear_in->first, m.linear_in->second);
    if (!rep)
      throw AdsemError(ErrorKind::type,
                       fmt::format("metavariable '{}' : {} sits in the body of the dual map "
                                   "(λ{}:{}. ...)*, so its instances must be linear in {}; the "
                                   "generator builds linear terms only at Euclidean types made "
                                   "of {}'s components (or write '{} # {}')",
                                   m.name, type_text(m.type), m.linear_in->first,
                                   type_text(m.linear_in->second), m.linear_in->first,
                                   m.linear_in->first, m.linear_in->first, m.name),
                       rule.lhs.pos);
    reps[m.name] = *rep;
  }
  const Context gamma(p.gamma.begin(), p.gamma.end());
  for (const auto& [side, term, mode] : {std::tuple{&rule.lhs, p.lhs, LinMode::strict},
                                         std::tuple{&rule.rhs, p.rhs, LinMode::plus}}) {
    try {
      adsem::rules::within(*side, [&] { return typecheck(instantiate(term, reps), gamma, mode); });
    } catch (const AdsemError& e) {
      Diagnostic d = e.diagnostic();
      d.message = fmt::format("ill-typed rule '{}': the {}-hand side breaks the linearity "
                              "condition of rule (dual) ({}, with the metavariables in dual-map "
                              "bodies linear in the bound variable): {}",
                              rule.name, side == &rule.lhs ? "left" : "right",
                              mode == LinMode::strict ? "lin" : "lin⁺", d.message);
      throw AdsemError(std::move(d));
    }
  }
}

} // namespace

Term real_atom(const Term& t, const Type& ty) {
  if (is_prod(ty)) return real_atom(proj(1, t), ty->left);
  return t;
}

Pattern compile_pattern(const adsem::rules::RuleDecl& rule, bool transformation_calls) {
  Pattern p;
  p.name = rule.name;
  // reserved: the generator's binder names (z1, a2, y17, ...), the context's variable a0, the hole
  static const std::regex reserved("[a-z][0-9]+|hole_|slot_");
  adsem::rules::refuse_reserved_names(rule, reserved,
                                      "binders (a letter followed by digits: z1, a2, ...)");
  std::map<std::string, Type> declared;
  for (const adsem::rules::MetaDecl& d : rule.metas)
    declared[d.name] = adsem::rules::within(d.type, [&] { return parse_type(d.type.text); });
  p.lhs = parse_side(rule.lhs, declared, adsem::rules::fail_undeclared_on_left);
  adsem::rules::check_depth(view, p.lhs, rule.lhs);
  if (p.lhs->kind == Kind::var) adsem::rules::fail_lone_variable(rule);
  collect_metas(rule, p, declared);
  std::map<std::string, Type> on_left;
  for (const Metavariable& m : p.metas)
    on_left[m.name] = m.type;
  p.rhs = parse_side(
      rule.rhs, on_left,
      [&](const std::string& n, std::optional<SourcePos> pos) {
        adsem::rules::fail_free_on_right(n, declared.contains(n), pos);
      },
      transformation_calls);
  if (transformation_calls) p.rhs = typed_transformation_calls(p.rhs);
  adsem::rules::check_depth(view, p.rhs, rule.rhs);
  std::vector<std::string> binders;
  adsem::rules::binder_names(view, p.lhs, binders);
  adsem::rules::binder_names(view, p.rhs, binders);
  for (const auto& [name, type] : declared)
    adsem::rules::refuse_bound_metavariable(rule, binders, name);
  p.gamma = on_left;
  p.lhs = annotate_zeros(p.lhs);
  apply_conditions(rule, p);
  check_types(rule, p);
  return p;
}

Term instantiate(const Term& m, const std::map<std::string, Term>& sigma) {
  return adsem::rules::instantiate(view, m, sigma);
}

std::vector<Occurrence> occurrences(const Term& m, const std::string& name, VarScope visible) {
  return adsem::rules::occurrences_of<TermView, std::vector<int>>(
      view, m, name, {std::move(visible), std::nullopt},
      [](const std::vector<int>& at, const TermView::Scope& s) {
        return Occurrence{at, s.visible};
      });
}

Term replace_at(const Term& m, const std::vector<int>& path, const Term& n) {
  return adsem::rules::replace_at(view, m, path, n);
}

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p) {
  std::vector<std::vector<int>> places = adsem::rules::zero_places<TermView, std::vector<int>>(
      view, p.rhs, [](const Term& m) { return m->kind != Kind::zero; },
      [](const Term& m) { return size_of(m); });
  if (p.rhs->kind != Kind::zero) places.emplace_back(); // the whole right-hand side last
  const Context gamma(p.gamma.begin(), p.gamma.end());
  std::vector<adsem::rules::ZeroVariant> out;
  for (const std::vector<int>& path : places) {
    const Term replaced = adsem::rules::subterm(view, p.rhs, path);
    // the zero of the subterm's own type, where its position allows it (in a dual-map body the
    // linearity condition, lin⁺, is kept: lin⁺(0) = every variable)
    Type t;
    try {
      VarScope vis;
      for (const Occurrence& o :
           occurrences(replace_at(p.rhs, path, var("slot_", any_type())), "slot_", {}))
        vis = o.visible;
      Context g = gamma;
      for (const auto& [x, ty] : vis)
        g[x] = ty;
      t = typecheck(replaced, g, LinMode::structural);
    } catch (const AdsemError&) {
      continue;
    }
    if (is_any(t)) continue;
    const Term mutated = replace_at(p.rhs, path, var("slot_", t));
    try {
      if (!same_type(typecheck(replace_at(p.rhs, path, zero(t)), gamma, LinMode::plus), p.type))
        continue;
    } catch (const AdsemError&) {
      continue;
    }
    const std::string zero_text = fmt::format("(zero : {})", type_text(t));
    std::string text = print(mutated);
    const auto at = text.find("slot_");
    text.replace(at, 5, zero_text);
    out.push_back({print(replaced), text, zero_text});
  }
  return out;
}

} // namespace adsem::pullback
