#include "properties/dual_numbers/rule_pattern.hpp"

#include <regex>

#include "properties/core/term_view.hpp"
#include "syntax/dual_numbers/parser.hpp"

namespace adsem::dual_numbers {

bool TermView::bound(const Scope& s, const std::string& x) {
  return adsem::rules::has_var(s, x);
}

// λ binds in its body (its first child).
std::optional<TermView::Scope> TermView::enter(const Term& t, std::size_t i, const Scope& s) {
  if (t->kind != Kind::lam || i != 0) return std::nullopt;
  Scope inner = s;
  inner.emplace_back(t->name, t->binder_type);
  return inner;
}

void TermView::binders(const Term& t, std::vector<std::string>& out) {
  if (t->kind == Kind::lam) out.push_back(t->name);
}

namespace {

constexpr TermView view;

Type parse_type_text(const std::string& text) {
  return parse_type(text);
}

} // namespace

Pattern compile_pattern(const adsem::rules::RuleDecl& rule) {
  // reserved: the generators' binder names (y0, y1, ...) and the macro's (p, q are bound by D's
  // clauses, never free in a program, so a rule may use them)
  static const std::regex reserved("y[0-9]+");
  adsem::rules::refuse_reserved_names(rule, reserved, "binders (y0, y1, ...)");
  const auto sides =
      adsem::rules::parse_sides(view, rule, [](const std::string& text) { return parse(text); });
  Pattern p;
  p.name = rule.name;
  for (auto& [name, type] : adsem::rules::declared_types(view, rule, sides, parse_type_text)) {
    p.gamma.emplace_back(name, type);
    p.metas.push_back({name, type, {}});
  }
  adsem::rules::sort_by_declaration(p.metas, rule);
  struct Typed {
    Term term;
    Type type;
  };
  const auto [left, right] = adsem::rules::typecheck_sides(
      rule, sides.lhs, sides.rhs,
      [&](const Term& t) {
        return Typed{t, typecheck(t, p.gamma)};
      },
      same_type, print_type);
  p.lhs = left.term;
  p.rhs = right.term;
  p.type = left.type;
  adsem::rules::scope_metas(view, p.lhs, p.metas, same_type);
  adsem::rules::apply_conditions(
      rule, p.metas, [](const adsem::rules::Fragment& f) { return parse_type_text(f.text); },
      same_type, print_type, "dual-numbers types are monomorphic");
  std::vector<std::string> taken = adsem::rules::identifiers(rule.lhs.text + " " + rule.rhs.text);
  for (const auto& m : rule.metas)
    taken.push_back(m.name);
  p.variable = adsem::rules::fresh_context_name(taken);
  return p;
}

Term instantiate(const Term& t, const std::map<std::string, Term>& sigma) {
  return adsem::rules::instantiate(view, t, sigma);
}

std::vector<Occurrence> occurrences(const Term& t, const std::string& name,
                                    const TypeContext& outer) {
  return adsem::rules::occurrences_of<TermView, Path>(
      view, t, name, outer, [](const Path& at, const TypeContext& visible) {
        return Occurrence{at, visible};
      });
}

Term replace_at(const Term& t, const Path& path, const Term& with) {
  return adsem::rules::replace_at(view, t, path, with);
}

Term zero_of(const Type& tau) {
  switch (tau->kind) {
  case TypeKind::real:
    return constant(0);
  case TypeKind::product:
    return pair(zero_of(tau->left), zero_of(tau->right));
  case TypeKind::arrow:
    return lam("yzero", tau->left, zero_of(tau->right));
  }
  return constant(0);
}

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p) {
  std::vector<Path> places = adsem::rules::zero_places<TermView, Path>(
      view, p.rhs, [](const Term&) { return true; }, [](const Term& t) { return size(t); });
  places.emplace_back(); // the whole right-hand side last
  std::vector<Term> zeros = {constant(0), zero_of(p.type)};
  for (const Metavariable& m : p.metas)
    zeros.push_back(zero_of(m.type));
  return adsem::rules::first_fitting_zeros(view, p.rhs, places, zeros, [&](const Term& mutated) {
    try {
      return same_type(typecheck(mutated, p.gamma), p.type);
    } catch (const AdsemError&) {
      return false;
    }
  });
}

} // namespace adsem::dual_numbers
