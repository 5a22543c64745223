// The evaluation contexts of Mak and Ong's §3.4 (seed 000 L355-359; spec §4.6), one book entry
// per production, and the strategy's index of them (contexts.hpp).
#include "semantics/pullback/contexts.hpp"

#include <stdexcept>
#include <string>

#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/rules.hpp"

namespace adsem::pullback {

namespace {

using K = Kind;

constexpr std::string_view S34 = "Mak & Ong, A Differential-form Pullback Programming Language "
                                 "for Higher-order Reverse-mode Automatic Differentiation, §3.4 "
                                 "(seed 000 line 359)";
// No step is a context: the search opens the hole, and the step is the redex's rule.
constexpr std::string_view searched =
    "a production of the evaluation contexts C: the strategy's search opens its hole "
    "(strategy.cpp); the step is the rule of the redex found there";

Book::Entry production(std::string name, std::string_view citation, std::string summary, K kind,
                       Hole hole) {
  Rule<EvaluationContext> rule;
  rule.info = rule_info(std::move(name), std::string(citation), RuleKind::context,
                        std::move(summary), searched);
  rule.kinds = {kind};
  rule.extra = hole;
  return rule;
}

std::string spec(std::string_view what) {
  return std::string(S34) + "; " + std::string(what);
}

// A hole in child `kid`, searched first (P, S: any term) or after the children before it are
// values (V).
Hole first(int kid) {
  return Hole{kid, false, false, Grammar::evaluation, BodyShape::any};
}
Hole after_values(int kid, bool each_later = false) {
  return Hole{kid, each_later, true, Grammar::evaluation, BodyShape::any};
}
Hole in_body(Grammar grammar, int kid, BodyShape body) {
  return Hole{kid, false, false, grammar, body};
}

} // namespace

// Standard call by value, left to right, extended with duals and pullbacks (L355-359).
std::vector<Book::Entry> context_entries() {
  return {
      production("C + P", S34, "the left summand first", K::sum, first(0)),
      production("V + C",
                 spec("the paper prints V + C_A, read as V + C (spec §11 erratum 13); every "
                      "summand after the first, sums being n-ary (ID-5)"),
                 "then each summand once those before it are values", K::sum,
                 after_values(1, true)),
      production("C P", S34, "the function first", K::app, first(0)),
      production("V C", S34, "then the argument", K::app, after_values(1)),
      production("π_i(C)", S34, "inside a projection", K::proj, first(0)),
      production("⟨C,S⟩", S34, "the first component first", K::pair, first(0)),
      production("⟨V,C⟩", S34, "then the second", K::pair, after_values(1)),
      production("f̲(C)", S34, "the argument of a primitive", K::prim, first(0)),
      production("𝒥f̲·C", S34, "the direction of a Jacobian", K::jac, first(0)),
      production("(λx.S)*·C", S34, "the argument of a dual map first", K::dualmap, first(1)),
      production("(λx.C)*·V", S34, "then its body, under the binder", K::dualmap, after_values(0)),
      production("(Ω λy.C_A)·S",
                 spec("only while the body is not final (spec §4.6, ID-10; erratum 6)"),
                 "a body not yet final is A-normalised (A*, spec §4.2)", K::pullback,
                 in_body(Grammar::administrative, 0, BodyShape::not_final)),
      production("(Ω λy.E)·C", S34, "the 1-form once the body is elementary", K::pullback,
                 in_body(Grammar::evaluation, 1, BodyShape::elementary)),
      production("(Ω λy.⟨y,E⟩)·C", S34, "the 1-form once the body is a split body", K::pullback,
                 in_body(Grammar::evaluation, 1, BodyShape::split)),
      production("let x = C in N",
                 "not in the paper: spec §4.6 [ID], the β-redex reading of let (rule let)",
                 "the bound term first", K::let, first(0)),
  };
}

Standing pullback_standing(const Term& t) {
  const Term& body = t->kids[0];
  if (body->kind == Kind::let) return Standing::let_body;
  if (is_elementary(body)) return Standing::elementary;
  if (is_split_body(body, t->name)) return Standing::split;
  return Standing::not_final;
}

bool Contexts::holds(const Hole& hole, Standing at) {
  switch (hole.body) {
  case BodyShape::any:
    return true;
  case BodyShape::not_final: // a let body's finality is asked by A* itself (its match)
    return at == Standing::not_final || at == Standing::let_body;
  case BodyShape::elementary:
    return at == Standing::elementary;
  case BodyShape::split:
    return at == Standing::split;
  }
  return false;
}

int Contexts::Order::after(int after, int kids) const {
  std::size_t i = 0;
  if (after >= 0) {
    while (i < count && !slots[i].covers(after))
      ++i;
    if (i < count && slots[i].each_later && after + 1 < kids) return after + 1;
    ++i;
  }
  for (; i < count; ++i)
    if (slots[i].kid < kids) return slots[i].kid;
  return -1;
}

Contexts::Contexts(const Book& book) {
  for (const Book::Entry& entry : book.entries()) {
    const auto* rule = std::get_if<Rule<EvaluationContext>>(&entry);
    if (!rule) continue;
    const Hole& hole = rule->extra;
    for (const Kind kind : rule->kinds) {
      const auto k = static_cast<std::size_t>(kind);
      if (hole_counts_[k] == max_slots)
        throw std::logic_error("contexts: more than " + std::to_string(max_slots) +
                               " productions of one kind ('" + rule->info.name + "')");
      holes_[k][hole_counts_[k]++] = hole;
      if (hole.grammar == Grammar::administrative) {
        administrative_[k] = true;
        continue;
      }
      for (std::size_t at = 0; at < standings; ++at) {
        if (!holds(hole, static_cast<Standing>(at))) continue;
        Order& order = orders_[k][at];
        order.slots[order.count++] = Slot{hole.kid, hole.each_later};
      }
    }
  }
  for (auto& by_standing : orders_)
    for (Order& order : by_standing)
      for (std::size_t kids = 0; kids <= narrow; ++kids)
        for (std::size_t after = 0; after <= narrow; ++after)
          order.next[kids][after] = static_cast<signed char>(
              order.after(static_cast<int>(after) - 1, static_cast<int>(kids)));
}

const Contexts& paper_contexts() {
  static const Contexts contexts(*paper_rules());
  return contexts;
}

} // namespace adsem::pullback
