#include "properties/linear_negation/rule_pattern.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "properties/core/term_view.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

bool TermView::bound(const Scope& s, const std::string& x) {
  return std::ranges::find(s.bound, x) != s.bound.end();
}

// λ, let and let-pair bind in their first child.
std::optional<TermView::Scope> TermView::enter(const Term& t, std::size_t i, const Scope& s) {
  if (i != 0 || (t->kind != Kind::lam && t->kind != Kind::let && t->kind != Kind::let_pair))
    return std::nullopt;
  Scope inner = s;
  for (const Binder* b : {&t->x, &t->y}) {
    if (b->name.empty() || (b == &t->y && t->kind != Kind::let_pair)) continue;
    inner.bound.push_back(b->name);
    if (!b->linear) inner.visible.emplace_back(b->name, b->type);
  }
  return inner;
}

std::string TermView::print(const Term& t) {
  return linear_negation::print(t);
}

namespace {

constexpr TermView view;

// Type-checks one side in Γ = the metavariables. A metavariable in a position that must be linear
// gets a hint: metavariables are exponential terms.
Typed check_side(const Term& t, const Context& gamma) {
  try {
    return typecheck(t, gamma, signature());
  } catch (const AdsemError& e) {
    Diagnostic d = e.diagnostic();
    for (const auto& [m, type] : gamma)
      if (d.message.starts_with("exponential variable " + m + " where")) {
        d.message += fmt::format(
            "; metavariable {} stands for an exponential term (Γ ⊢ {} : {}), and a position "
            "linear in a variable needs a term of Γ ⊢_z (linear metavariables are not part of "
            "the rule language)",
            m, m, type_text(type));
        break;
      }
    throw AdsemError(std::move(d));
  }
}

// A linear binder is bound but never visible: `z # M` says nothing, for another reason.
void apply_conditions(const adsem::rules::RuleDecl& rule, Pattern& p) {
  adsem::rules::apply_conditions(
      rule, p.metas, [](const adsem::rules::Fragment& f) { return parse_type(f.text); }, same_type,
      [](const Type& t) { return type_text(t); }, "linear-negation types are monomorphic",
      [&](const adsem::rules::Condition& c, const std::string& meta) {
        std::set<std::string> binders;
        binder_names(p.lhs, binders);
        if (!binders.count(c.left.text)) return adsem::rules::not_bound_text(c, meta);
        return fmt::format("side condition '{}': '{}' is not an exponential binder around every "
                           "occurrence of {} on the left (a linear variable can never occur in a "
                           "metavariable's instance), so the condition says nothing",
                           c.text, c.left.text, meta);
      });
}

} // namespace

Pattern compile_pattern(const adsem::rules::RuleDecl& rule) {
  Pattern p;
  p.name = rule.name;
  // reserved: the generators' binder names (z1, p2, y3, f4, …, x1.. the inputs) and the hole
  static const std::regex reserved("(z|p|q|y|f|h|w|k|a|e|x|dx)[0-9]+");
  adsem::rules::refuse_reserved_names(rule, reserved,
                                      "variables (a letter and digits, e.g. z1, y2, x1)");
  const Term lhs = adsem::rules::within(
      rule.lhs, [&] { return parse_term(rule.lhs.text, signature(), Mode::target); });
  const Term rhs = adsem::rules::within(
      rule.rhs, [&] { return parse_term(rule.rhs.text, signature(), Mode::target); });
  if (lhs->kind == Kind::var) adsem::rules::fail_lone_variable(rule);
  const std::vector<std::string> on_left =
      adsem::rules::check_free_names(rule, adsem::rules::each_free_located(view, lhs, rule.lhs),
                                     adsem::rules::each_free_located(view, rhs, rule.rhs));

  // the metavariables of the left, in declaration order, with their types
  std::set<std::string> binders;
  binder_names(lhs, binders);
  binder_names(rhs, binders);
  for (const adsem::rules::MetaDecl& d : rule.metas) {
    if (std::ranges::find(on_left, d.name) == on_left.end()) continue;
    adsem::rules::refuse_bound_metavariable(rule, binders, d.name);
    Metavariable m{
        d.name, adsem::rules::within(d.type, [&] { return parse_type(d.type.text); }), {}};
    p.gamma[m.name] = m.type;
    p.metas.push_back(std::move(m));
  }

  const auto [left, right] = adsem::rules::typecheck_sides(
      rule, lhs, rhs, [&](const Term& t) { return check_side(t, p.gamma); }, same_type,
      [](const Type& t) { return type_text(t); });
  p.lhs = left.term;
  p.rhs = right.term;
  p.type = left.type;

  // scopes: the exponential binders around every occurrence on the (elaborated) left
  adsem::rules::scope_metas(view, p.lhs, p.metas, same_type);
  apply_conditions(rule, p);

  // a source rule: both sides in Λ(F), so D of Table 3 applies to programs holding an instance
  p.source = std::ranges::none_of(p.metas, [](const auto& m) { return has_neg(m.type); });
  if (p.source) {
    try {
      TypeOptions o;
      o.source = true;
      (void)typecheck(p.lhs, p.gamma, signature(), std::nullopt, o);
      (void)typecheck(p.rhs, p.gamma, signature(), std::nullopt, o);
    } catch (const AdsemError&) {
      p.source = false;
    }
  }
  return p;
}

Term instantiate(const Term& t, const std::map<std::string, Term>& sigma) {
  return adsem::rules::instantiate(view, t, sigma);
}

std::vector<Occurrence> occurrences(const Term& t, const std::string& name, VarScope visible) {
  TermView::Scope scope{std::move(visible), {}};
  for (const auto& v : scope.visible)
    scope.bound.push_back(v.first);
  return adsem::rules::occurrences_of<TermView, Path>(view, t, name, scope,
                                                      [](const Path& at, const TermView::Scope& s) {
                                                        return Occurrence{at, s.visible};
                                                      });
}

Term replace_at(const Term& t, const Path& path, const Term& n) {
  return adsem::rules::replace_at(view, t, path, n);
}

Term zero_of(const Type& a) {
  switch (a->kind) {
  case TypeNode::Kind::real:
    return num(0);
  case TypeNode::Kind::product:
    return pair(zero_of(a->left), zero_of(a->right));
  case TypeNode::Kind::arrow:
    return lam(exp_binder("yzero", a->left), zero_of(a->right));
  case TypeNode::Kind::neg: // (zero) of Table 1: 0 is linear in every z
    return lam(lin_binder("azero"), zero(a->dim));
  }
  return num(0);
}

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p) {
  std::vector<Path> places = adsem::rules::zero_places<TermView, Path>(
      view, p.rhs, [](const Term&) { return true; }, [](const Term& t) { return size_of(t); });
  places.emplace_back(); // the whole right-hand side last
  std::vector<Term> zeros = {zero_of(real_type()), zero_of(p.type)};
  for (const Metavariable& m : p.metas)
    zeros.push_back(zero_of(m.type));
  return adsem::rules::first_fitting_zeros(view, p.rhs, places, zeros, [&](const Term& mutated) {
    return !type_error(mutated, p.gamma, p.type, signature());
  });
}

} // namespace adsem::linear_negation
