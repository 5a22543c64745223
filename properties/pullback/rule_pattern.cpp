#include "properties/pullback/rule_pattern.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "semantics/pullback/primitive_table.hpp"
#include "syntax/pullback/parser.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback {

namespace {

// The binder a child of t introduces (seed 000 Fig. 1: λx.S, (λx.S₁)*·S₂ and (Ω λx.P)·S bind x in
// their first child only; let x = M in N binds x in N).
std::optional<std::pair<std::string, Type>> bound_in(const Node& t, std::size_t i) {
  switch (t.kind) {
  case Kind::lam:
  case Kind::dualmap:
  case Kind::pullback:
    if (i == 0) return std::pair{t.name, t.type};
    return std::nullopt;
  case Kind::let:
    if (i == 1) return std::pair{t.name, t.type};
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

bool binds(const VarScope& visible, const std::string& x) {
  return std::ranges::any_of(visible, [&](const auto& v) { return v.first == x; });
}

using DualBinder = std::optional<std::pair<std::string, Type>>;

// Calls f(node, visible, innermost dual-map binder, path) on every free variable occurrence.
template <class F>
void walk_free(const Term& m, VarScope& visible, const DualBinder& dual_binder,
               std::vector<int>& path, F&& f) {
  if (m->kind == Kind::var && !binds(visible, m->name)) f(*m, visible, dual_binder, path);
  for (std::size_t i = 0; i < m->kids.size(); ++i) {
    const auto b = bound_in(*m, i);
    if (b) visible.push_back(*b);
    path.push_back(static_cast<int>(i));
    walk_free(m->kids[i], visible,
              m->kind == Kind::dualmap && i == 0 ? DualBinder(std::pair{m->name, m->type})
                                                 : dual_binder,
              path, f);
    path.pop_back();
    if (b) visible.pop_back();
  }
}

void binder_names(const Term& t, std::vector<std::string>& out) {
  if (t->kind == Kind::lam || t->kind == Kind::dualmap || t->kind == Kind::pullback ||
      t->kind == Kind::let)
    out.push_back(t->name);
  for (const Term& k : t->kids)
    binder_names(k, out);
}

VarScope intersect(const VarScope& a, const VarScope& b) {
  VarScope out;
  for (const auto& [x, t] : a)
    for (const auto& [y, u] : b)
      if (x == y && same_type(t, u)) {
        out.emplace_back(x, t);
        break;
      }
  return out;
}

[[noreturn]] void fail_at(const rules::Fragment& side, const Node& n, ErrorKind kind,
                          const std::string& message) {
  throw AdsemError(kind, message, n.pos.line > 0 ? rules::locate(side, n.pos) : side.pos);
}

// Parses one side; an unbound name becomes a located parse error with `unbound(name)` as text.
template <class Unbound>
Term parse_side(const rules::Fragment& side, const std::map<std::string, Type>& free,
                Unbound unbound, bool transformation_calls = false) {
  return rules::within(side, [&] {
    ParseOptions o;
    o.signature = signature();
    if (transformation_calls)
      o.signature = [paper = o.signature](const std::string& f) -> std::optional<PrimitiveInfo> {
        if (f == anf_call) return PrimitiveInfo{f, arrow(any_type(), any_type())};
        return paper(f);
      };
    o.free = free;
    try {
      return parse_term(side.text, o);
    } catch (const AdsemError& e) {
      const std::string& msg = e.diagnostic().message;
      const std::string prefix = "unbound variable '";
      if (e.diagnostic().kind == ErrorKind::type && msg.rfind(prefix, 0) == 0) {
        const std::string name = msg.substr(prefix.size(), msg.size() - prefix.size() - 1);
        throw AdsemError(ErrorKind::parse, unbound(name), e.diagnostic().pos);
      }
      throw;
    }
  });
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

void check_depth(const Term& m, const rules::Fragment& side) {
  constexpr int limit = 500;
  std::vector<std::pair<const Node*, int>> todo = {{m.get(), 1}};
  while (!todo.empty()) {
    const auto [n, depth] = todo.back();
    todo.pop_back();
    if (depth > limit)
      throw AdsemError(
          ErrorKind::parse,
          fmt::format("the pattern nests deeper than {} levels; rules are meant to be small",
                      limit),
          side.pos);
    for (const Term& c : n->kids)
      todo.emplace_back(c.get(), depth + 1);
  }
}

void collect_metas(const rules::RuleDecl& rule, Pattern& p,
                   const std::map<std::string, Type>& declared) {
  VarScope visible;
  std::vector<int> path;
  walk_free(p.lhs, visible, std::nullopt, path,
            [&](const Node& n, const VarScope& vis, const DualBinder& dual, auto&) {
              if (!declared.contains(n.name)) return; // the parser resolved every other name
              auto it =
                  std::ranges::find_if(p.metas, [&](const auto& m) { return m.name == n.name; });
              if (it == p.metas.end()) {
                p.metas.push_back(Metavariable{n.name, declared.at(n.name), vis, dual});
                return;
              }
              it->binders = intersect(it->binders, vis);
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
  // declaration order
  std::ranges::stable_sort(p.metas, [&](const Metavariable& a, const Metavariable& b) {
    const auto index = [&](const std::string& n) {
      return std::ranges::find_if(rule.metas, [&](const auto& d) { return d.name == n; }) -
             rule.metas.begin();
    };
    return index(a.name) < index(b.name);
  });
}

void apply_conditions(const rules::RuleDecl& rule, Pattern& p) {
  for (const rules::Condition& c : rule.conditions) {
    if (c.kind == rules::Condition::Kind::type_equal) {
      const Type a = rules::within(c.left, [&] { return parse_type(c.left.text); });
      const Type b = rules::within(c.right, [&] { return parse_type(c.right.text); });
      if (!same_type(a, b))
        throw AdsemError(ErrorKind::type,
                         fmt::format("the side condition '{}' is false: {} and {} are different "
                                     "types (pullback types are monomorphic)",
                                     c.text, type_text(a), type_text(b)),
                         c.pos);
      continue;
    }
    auto it = std::ranges::find_if(p.metas, [&](const auto& m) { return m.name == c.right.text; });
    if (it == p.metas.end())
      throw AdsemError(ErrorKind::parse,
                       fmt::format("side condition '{}': '{}' is not a metavariable of the "
                                   "left-hand side",
                                   c.text, c.right.text),
                       c.right.pos);
    if (!binds(it->binders, c.left.text))
      throw AdsemError(ErrorKind::parse,
                       fmt::format("side condition '{}': '{}' is not bound around every occurrence "
                                   "of {} on the left, so the condition says nothing",
                                   c.text, c.left.text, it->name),
                       c.left.pos);
    std::erase_if(it->binders, [&](const auto& v) { return v.first == c.left.text; });
    if (it->linear_in && it->linear_in->first == c.left.text) it->linear_in.reset();
  }
}

// The schema's typing: both sides structurally (metavariables at their declared types), then the
// (dual) rule's linearity condition with every metavariable that must be linear replaced by a
// representative linear term: strict lin on the left (a source program), lin⁺ on the right (a
// reduct, spec §3.2 ID-3, as the calculus's subject reduction checks reducts).
void check_types(const rules::RuleDecl& rule, Pattern& p) {
  const Type left = rules::within(rule.lhs, [&] {
    return type_check(p.lhs, Context(p.gamma.begin(), p.gamma.end()), LinMode::structural);
  });
  p.rhs = annotate_zeros(p.rhs, left);
  const Type right = rules::within(rule.rhs, [&] {
    return type_check(p.rhs, Context(p.gamma.begin(), p.gamma.end()), LinMode::structural);
  });
  if (!same_type(left, right) || is_any(left))
    throw AdsemError(ErrorKind::type,
                     fmt::format("ill-typed rule '{}': the left-hand side has type {} but the "
                                 "right-hand side has type {}",
                                 rule.name, type_text(left), type_text(right)),
                     rule.rhs.pos);
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
      rules::within(*side, [&] { return type_check(instantiate(term, reps), gamma, mode); });
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

Pattern compile_pattern(const rules::RuleDecl& rule, bool transformation_calls) {
  Pattern p;
  p.name = rule.name;
  // reserved: the generator's binder names (z1, a2, y17, ...), the context's variable a0, the hole
  static const std::regex reserved("[a-z][0-9]+|hole_|slot_");
  for (const rules::Fragment* side : {&rule.lhs, &rule.rhs})
    for (const std::string& id : rules::identifiers(side->text))
      if (std::regex_match(id, reserved))
        throw AdsemError(ErrorKind::parse,
                         fmt::format("the name '{}' is reserved for generated binders (a letter "
                                     "followed by digits: z1, a2, ...); rename it",
                                     id),
                         side->pos);
  std::map<std::string, Type> declared;
  for (const rules::MetaDecl& d : rule.metas)
    declared[d.name] = rules::within(d.type, [&] { return parse_type(d.type.text); });
  p.lhs = parse_side(rule.lhs, declared, [](const std::string& n) {
    return fmt::format("'{}' is neither bound on the left-hand side nor a declared metavariable "
                       "(declare it: meta {} : T)",
                       n, n);
  });
  check_depth(p.lhs, rule.lhs);
  if (p.lhs->kind == Kind::var)
    throw AdsemError(ErrorKind::parse,
                     "the left-hand side is a lone variable: the rule would rewrite every term",
                     rule.lhs.pos);
  collect_metas(rule, p, declared);
  std::map<std::string, Type> on_left;
  for (const Metavariable& m : p.metas)
    on_left[m.name] = m.type;
  p.rhs = parse_side(
      rule.rhs, on_left,
      [&](const std::string& n) {
        if (declared.contains(n))
          return fmt::format(
              "unbound metavariable '{}' on the right-hand side: it does not occur on "
              "the left, so a rewrite would not know what to put there",
              n);
        return fmt::format("'{}' is neither bound on the right-hand side nor a metavariable of the "
                           "left-hand side",
                           n);
      },
      transformation_calls);
  if (transformation_calls) p.rhs = typed_transformation_calls(p.rhs);
  check_depth(p.rhs, rule.rhs);
  std::vector<std::string> binders;
  binder_names(p.lhs, binders);
  binder_names(p.rhs, binders);
  for (const auto& [name, type] : declared)
    if (std::ranges::find(binders, name) != binders.end())
      throw AdsemError(
          ErrorKind::parse,
          fmt::format("'{}' is a metavariable and cannot also be a bound variable", name),
          rule.pos);
  p.gamma = on_left;
  p.lhs = annotate_zeros(p.lhs);
  apply_conditions(rule, p);
  check_types(rule, p);
  return p;
}

Term instantiate(const Term& m, const std::map<std::string, Term>& sigma) {
  if (m->kind == Kind::var) {
    const auto it = sigma.find(m->name);
    return it == sigma.end() ? m : it->second;
  }
  if (m->kids.empty()) return m;
  Node copy = *m;
  for (Term& k : copy.kids)
    k = instantiate(k, sigma);
  return make_node(std::move(copy));
}

std::vector<Occurrence> occurrences(const Term& m, const std::string& name, VarScope visible) {
  std::vector<Occurrence> out;
  std::vector<int> path;
  walk_free(m, visible, std::nullopt, path,
            [&](const Node& n, const VarScope& vis, const DualBinder&, const auto& at) {
              if (n.name == name) out.push_back(Occurrence{at, vis});
            });
  return out;
}

Term subterm(const Term& m, const std::vector<int>& path) {
  Term t = m;
  for (const int i : path)
    t = t->kids[static_cast<std::size_t>(i)];
  return t;
}

Term replace_at(const Term& m, const std::vector<int>& path, const Term& n) {
  if (path.empty()) return n;
  Node copy = *m;
  const std::vector<int> rest(path.begin() + 1, path.end());
  auto& k = copy.kids[static_cast<std::size_t>(path.front())];
  k = replace_at(k, rest, n);
  return make_node(std::move(copy));
}

std::vector<rules::ZeroVariant> zero_variants(const Pattern& p) {
  struct Candidate {
    std::size_t size;
    std::vector<int> path;
  };
  std::vector<Candidate> candidates;
  std::vector<int> path;
  const auto walk = [&](auto&& self, const Term& m) -> void {
    if (!path.empty() && m->kind != Kind::zero) candidates.push_back({size_of(m), path});
    for (std::size_t i = 0; i < m->kids.size(); ++i) {
      path.push_back(static_cast<int>(i));
      self(self, m->kids[i]);
      path.pop_back();
    }
  };
  walk(walk, p.rhs);
  std::ranges::stable_sort(candidates,
                           [](const Candidate& a, const Candidate& b) { return a.size > b.size; });
  if (p.rhs->kind != Kind::zero) candidates.push_back({size_of(p.rhs), {}});
  const Context gamma(p.gamma.begin(), p.gamma.end());
  std::vector<rules::ZeroVariant> out;
  for (const Candidate& c : candidates) {
    const Term replaced = subterm(p.rhs, c.path);
    // the zero of the subterm's own type, where its position allows it (in a dual-map body the
    // linearity condition, lin⁺, is kept: lin⁺(0) = every variable)
    Type t;
    try {
      VarScope vis;
      for (const Occurrence& o :
           occurrences(replace_at(p.rhs, c.path, var("slot_", any_type())), "slot_", {}))
        vis = o.visible;
      Context g = gamma;
      for (const auto& [x, ty] : vis)
        g[x] = ty;
      t = type_check(replaced, g, LinMode::structural);
    } catch (const AdsemError&) {
      continue;
    }
    if (is_any(t)) continue;
    const Term mutated = replace_at(p.rhs, c.path, var("slot_", t));
    try {
      if (!same_type(type_check(replace_at(p.rhs, c.path, zero(t)), gamma, LinMode::plus), p.type))
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
