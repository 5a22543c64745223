#include "properties/delta_reverse/rule_pattern.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "properties/core/term_view.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {

using TK = TypeNode::Kind;
Type type_in(const Term& t, const Context* globals, const Context& visible);

} // namespace

bool TermView::bound(const Scope& s, const std::string& x) {
  return adsem::rules::has_var(s, x);
}

// seed 001 App. A.1 / spec §3.1: λ, let and case bind in their bodies; do's x <- e1 binds in the
// rest (§3.2).
std::optional<TermView::Scope> TermView::enter(const Term& t, std::size_t i, const Scope& s) const {
  Scope inner = s;
  switch (t->kind) {
  case Kind::lam:
    inner.emplace_back(t->name, t->type);
    return inner;
  case Kind::let:
    if (i != 1) return std::nullopt;
    inner.emplace_back(t->name, type_in(t->kids[0], globals, s));
    return inner;
  case Kind::case_: {
    if (i == 0) return std::nullopt;
    const Type sum = type_in(t->kids[0], globals, s);
    inner.emplace_back(i == 1 ? t->name : t->name2,
                       sum ? (i == 1 ? sum->left : sum->right) : nullptr);
    return inner;
  }
  case Kind::bind: {
    if (i != 1 || t->name.empty()) return std::nullopt;
    const Type m = type_in(t->kids[0], globals, s);
    inner.emplace_back(t->name, m ? m->left : nullptr);
    return inner;
  }
  default:
    return std::nullopt;
  }
}

void TermView::binders(const Term& t, std::vector<std::string>& out) {
  if (t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::case_ ||
      (t->kind == Kind::bind && !t->name.empty()))
    out.push_back(t->name);
  if (t->kind == Kind::case_) out.push_back(t->name2);
}

std::string TermView::print(const Term& t) {
  return delta_reverse::print(t);
}

Term TermView::rebuild(const Term& t, std::vector<Term> kids) {
  Node copy = *t;
  copy.kids = std::move(kids);
  return make_shared_node<const Node>(std::move(copy));
}

namespace {

Type type_in(const Term& t, const Context* globals, const Context& visible) {
  if (globals == nullptr) return nullptr;
  Context g = *globals;
  g.insert(g.end(), visible.begin(), visible.end());
  return typecheck(t, g).type;
}

constexpr TermView view;

[[noreturn]] void fail_at(const adsem::rules::Fragment& side, const Node& n, ErrorKind kind,
                          const std::string& message) {
  throw AdsemError(kind, message, adsem::rules::locate(side, n.pos));
}

bool has_target_type(const Type& t) {
  if (!t) return false;
  switch (t->kind) {
  case TK::monad:
  case TK::delta:
  case TK::delta_id:
  case TK::delta2:
  case TK::dense:
    return true;
  default:
    return has_target_type(t->left) || has_target_type(t->right);
  }
}

// The first target-only node of t (Fig. 9's shaded forms, L86), or null.
const Node* first_target_node(const Term& t) {
  if (is_target_form(t->kind)) return t.get();
  for (const Term& k : t->kids)
    if (const Node* n = first_target_node(k)) return n;
  return nullptr;
}

// A delta rule's Delta-typed structure: Zero, Scale(r, d), Add(d1, d2) and metavariables; the
// coefficients r are source terms. Anything else is refused at its position.
void check_delta_side(const Term& t, const adsem::rules::Fragment& side, const Pattern& p) {
  switch (t->kind) {
  case Kind::d_zero:
    return;
  case Kind::var:
    if (adsem::rules::has_var(p.gamma, t->name)) return;
    break;
  case Kind::d_scale:
    if (const Node* n = first_target_node(t->kids[0]))
      fail_at(side, *n, ErrorKind::type,
              "the coefficient of Scale in a Delta rule must be a source term of type Real");
    check_delta_side(t->kids[1], side, p);
    return;
  case Kind::d_add:
    check_delta_side(t->kids[0], side, p);
    check_delta_side(t->kids[1], side, p);
    return;
  case Kind::d_var:
    fail_at(side, *t, ErrorKind::type,
            "a rule cannot name a fixed DeltaId with Var: ids are allocated by deltaLet (Fig. 10) "
            "and differ from tape to tape; use a Delta metavariable");
  default:
    break;
  }
  fail_at(side, *t, ErrorKind::type,
          "in a Delta rule the Delta-typed parts are Zero, Scale(r, d), Add(d1, d2) and Delta "
          "metavariables (the linear layer of L489-495); let, case and application of Deltas are "
          "not supported");
}

void decide_sort(const adsem::rules::RuleDecl& rule, Pattern& p) {
  if (p.type->kind == TK::delta) {
    p.sort = RuleSort::delta;
    for (const Metavariable& m : p.metas)
      if (m.type->kind != TK::delta && m.type->kind != TK::real)
        throw AdsemError(ErrorKind::type,
                         fmt::format("metavariable {} of a Delta rule has type {}: a Delta rule's "
                                     "metavariables have type Delta or Real",
                                     m.name, print_type(m.type)),
                         adsem::rules::find_meta(rule, m.name)->type.pos);
    check_delta_side(p.lhs, rule.lhs, p);
    check_delta_side(p.rhs, rule.rhs, p);
    return;
  }
  p.sort = RuleSort::source;
  const auto refuse = [&](const adsem::rules::Fragment& side, std::optional<SourcePos> pos) {
    throw AdsemError(ErrorKind::type,
                     "rules over the target layers (M A, pure, do, deltaLet, Delta2, δS) are not "
                     "supported: the model gives no meaning to a state-passing computation. A "
                     "rule is either over source terms or of type Delta (Zero, Scale, Add)",
                     pos ? adsem::rules::locate(side, *pos) : side.pos);
  };
  for (const Metavariable& m : p.metas)
    if (has_target_type(m.type)) refuse(rule.lhs, std::nullopt);
  if (has_target_type(p.type)) refuse(rule.lhs, std::nullopt);
  if (const Node* n = first_target_node(p.lhs)) refuse(rule.lhs, n->pos);
  if (const Node* n = first_target_node(p.rhs)) refuse(rule.rhs, n->pos);
}

} // namespace

Pattern compile_pattern(const adsem::rules::RuleDecl& rule) {
  Pattern p;
  p.name = rule.name;
  // reserved: the generator's binders (v0, v1, ...) and the hole of a context
  static const std::regex reserved("v[0-9]+|hole'.*");
  adsem::rules::refuse_reserved_names(rule, reserved, "binders (v0, v1, ...)");
  // a metavariable must be an identifier of the surface syntax: `M` is the monad type's keyword
  for (const adsem::rules::MetaDecl& m : rule.metas) {
    bool identifier = false;
    try {
      const Term t = parse_term(m.name);
      identifier = t->kind == Kind::var && t->name == m.name;
    } catch (const AdsemError&) {
    }
    if (!identifier)
      throw AdsemError(ErrorKind::parse,
                       fmt::format("'{}' cannot be a metavariable of delta-reverse: it is a "
                                   "keyword or a primitive of the surface syntax (spec §2.2; `M` "
                                   "is the monad type M A); choose another name",
                                   m.name),
                       m.pos);
  }
  const auto sides = adsem::rules::parse_sides(
      view, rule, [](const std::string& text) { return parse_term(text); });
  for (const auto& [name, type] : adsem::rules::declared_types(
           view, rule, sides, [](const auto& text) { return parse_type(text); })) {
    p.metas.push_back(Metavariable{name, type, {}});
    p.gamma.emplace_back(name, type);
  }
  adsem::rules::sort_by_declaration(p.metas, rule);
  const auto [left, right] = adsem::rules::typecheck_sides(
      rule, sides.lhs, sides.rhs, [&](const Term& t) { return typecheck(t, p.gamma); }, same_type,
      [](const Type& t) { return print_type(t); });
  p.lhs = left.term; // elaborated: e.i is fst/snd from here on
  p.rhs = right.term;
  p.type = left.type;
  decide_sort(rule, p);
  adsem::rules::scope_metas(TermView{&p.gamma}, p.lhs, p.metas, same_type);
  adsem::rules::apply_conditions(
      rule, p.metas, [](const adsem::rules::Fragment& f) { return parse_type(f.text); }, same_type,
      [](const Type& t) { return print_type(t); }, "delta-reverse types are monomorphic");
  return p;
}

Term instantiate(const Term& t, const std::map<std::string, Term>& sigma) {
  return adsem::rules::instantiate(view, t, sigma);
}

std::vector<Occurrence> occurrences(const Term& t, const std::string& name,
                                    const Context& globals) {
  return adsem::rules::occurrences_of<TermView, Path>(TermView{&globals}, t, name, {},
                                                      [](const Path& at, const Context& visible) {
                                                        return Occurrence{at, visible};
                                                      });
}

Term replace_at(const Term& t, const Path& path, const Term& with) {
  return adsem::rules::replace_at(view, t, path, with);
}

namespace {

// The zero of a type built from Real, Int, Delta and products (nullptr otherwise).
Term zero_of(const Type& t) {
  switch (t->kind) {
  case TK::real:
    return real(0.0);
  case TK::integer:
    return integer(0);
  case TK::delta:
    return node(Kind::d_zero, {});
  case TK::product: {
    Term a = zero_of(t->left), b = zero_of(t->right);
    return a && b ? pair(a, b) : nullptr;
  }
  default:
    return nullptr;
  }
}

} // namespace

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p) {
  std::vector<Path> places = adsem::rules::zero_places<TermView, Path>(
      view, p.rhs, [](const Term& t) { return t->kind != Kind::prim; },
      [](const Term& t) { return size_of(t); });
  places.emplace_back(); // the whole right-hand side last
  std::vector<Type> zero_types = {real_type(), delta_type(), p.type};
  for (const Metavariable& m : p.metas)
    zero_types.push_back(m.type);
  std::vector<Term> zeros;
  for (const Type& t : zero_types)
    if (Term zero = zero_of(t)) zeros.push_back(std::move(zero));
  return adsem::rules::first_fitting_zeros(view, p.rhs, places, zeros, [&](const Term& mutated) {
    return !type_error(mutated, p.gamma, p.type);
  });
}

} // namespace adsem::delta_reverse
