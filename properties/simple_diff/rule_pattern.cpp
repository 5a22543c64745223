#include "properties/simple_diff/rule_pattern.hpp"

#include "properties/core/term_view.hpp"

#include <algorithm>
#include <array>
#include <regex>

#include <fmt/format.h>

#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

constexpr TermView view;
const auto same = [](const Type& a, const Type& b) { return same_type(a, b); };

} // namespace

bool TermView::bound(const Scope& s, const std::string& x) {
  return adsem::rules::has_var(s.visible, x);
}

// seed 003 Fig. 1: let and rd bind in their body; a letrec body sees its parameter only (T-letrec).
std::optional<TermView::Scope> TermView::enter(const Term& m, std::size_t i, const Scope& s) {
  const auto with = [&](const std::string& x) {
    Scope inner = s;
    inner.visible.emplace_back(x, m->type);
    return inner;
  };
  if (m->kind == Kind::let && i == 1) return with(m->name);
  if (m->kind == Kind::rd && i == 2) return with(m->param());
  if (m->kind == Kind::letrec && i == 0) return Scope{{{m->param(), m->type}}, false};
  return std::nullopt;
}

// let, rd, letrec and its parameter: a pattern's binders must be fresh.
void TermView::binders(const Term& m, std::vector<std::string>& out) {
  if (m->kind == Kind::let || m->kind == Kind::letrec) out.push_back(m->name);
  if (m->kind == Kind::rd || m->kind == Kind::letrec) out.push_back(m->param());
}

// Derived-form records whose parts would be stale are dropped.
Term TermView::rebuild(const Term& m, std::vector<Term> kids) {
  Node copy = *m;
  copy.a = kids[0];
  copy.b = kids[1];
  copy.c = kids[2];
  if (copy.sugar() && !copy.sugar()->parts.empty()) copy.edit_extra().sugar.reset();
  return make_shared_node<const Node>(std::move(copy));
}

// σ keeps the derived-form records consistent: their parts are instantiated too.
Term TermView::instantiated(const Term& m, std::vector<Term> kids,
                            const std::map<std::string, Term>& sigma) {
  Term out = with_children(*m, kids[0], kids[1], kids[2]);
  if (m->sugar() && !m->sugar()->parts.empty()) {
    Sugar s = *m->sugar();
    for (Term& part : s.parts)
      part = adsem::rules::instantiate(view, part, sigma);
    out = with_sugar(out, std::move(s));
  }
  return out;
}

std::string TermView::print(const Term& m) {
  return simple_diff::print(m);
}

Term TermView::renamed(const Term& var, const std::string& to) {
  return mk::var(to, var->pos);
}

Pattern compile_pattern(const adsem::rules::RuleDecl& rule) {
  Pattern p;
  p.name = rule.name;
  // reserved names: the generator's binders (v1, v2, ...) and the hole
  static const std::regex reserved("v[0-9]+|hole'");
  adsem::rules::refuse_reserved_names(rule, reserved, "binders (v1, v2, ...)");
  const auto sides = adsem::rules::parse_sides(
      view, rule, [](const std::string& text) { return parse_term(text, primitives()); });
  p.lhs = sides.lhs;
  p.rhs = sides.rhs;
  // metavariables' types, and binders that would capture them
  for (const auto& [name, type] : adsem::rules::declared_types(
           view, rule, sides, [](const auto& text) { return parse_type(text); })) {
    p.metas.push_back(Metavariable{name, type, {}});
    p.gamma.emplace_back(name, type);
  }
  adsem::rules::scope_metas(view, p.lhs, p.metas, same);
  adsem::rules::sort_by_declaration(p.metas, rule);
  adsem::rules::apply_conditions(
      rule, p.metas, [](const adsem::rules::Fragment& f) { return parse_type(f.text); }, same,
      [](const Type& t) { return print_type(t); }, "simple-diff types are monomorphic");
  const auto [left, right] = adsem::rules::typecheck_sides(
      rule, p.lhs, p.rhs, [&](const Term& t) { return typecheck(t, primitives(), p.gamma); }, same,
      [](const Type& t) { return print_type(t); });
  p.type = left.type;
  for (const std::string& id : adsem::rules::identifiers(rule.lhs.text + " " + rule.rhs.text))
    p.names.push_back(id);
  collect_names(*p.lhs, p.names);
  collect_names(*p.rhs, p.names);
  return p;
}

Term instantiate(const Term& m, const std::map<std::string, Term>& sigma) {
  return adsem::rules::instantiate(view, m, sigma);
}

std::vector<Occurrence> occurrences(const Term& m, const std::string& name, VarScope visible) {
  return adsem::rules::occurrences_of<TermView, Path>(view, m, name, {std::move(visible), true},
                                                      [](const Path& at, const TermView::Scope& s) {
                                                        return Occurrence{at, s.visible, s.outer};
                                                      });
}

Term replace_at(const Term& m, const Path& path, const Term& n) {
  return adsem::rules::replace_at(view, m, path, n);
}

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p) {
  std::vector<Path> places = adsem::rules::zero_places<TermView, Path>(
      view, p.rhs, [](const Term& m) { return !m->is_boolean(); },
      [](const Term& m) { return term_size(*m); });
  places.emplace_back(); // the whole right-hand side last
  // 0 of the subterm's type: try real first, then the rule's type and the metavariables' types
  std::vector<Term> zeros = {zero_of(real_type(), false), zero_of(p.type, !p.type->is_real())};
  for (const Metavariable& m : p.metas)
    zeros.push_back(zero_of(m.type, !m.type->is_real())); // zero[T] printed, 0 at real
  return adsem::rules::first_fitting_zeros(view, p.rhs, places, zeros, [&](const Term& mutated) {
    try {
      return same_type(typecheck(mutated, primitives(), p.gamma).type, p.type);
    } catch (const AdsemError&) {
      return false;
    }
  });
}

} // namespace adsem::simple_diff
