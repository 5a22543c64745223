// A* and the let-series rules 7, 8 of seed 000 (§3.2 L205-219; Fig. 3 L236-240; spec §4.2-§4.3).
#include "semantics/pullback/let_series.hpp"

#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

std::pair<Term, Term> stage_slots(const Type&, const Type&, const Term& w) {
  return {proj(1, w), proj(2, w)};
}

namespace rules {

Term a_star(Machine& m, const PullbackBody::Redex& r, const RuleInfo&) {
  const Term& t = r.node;
  AnfOptions o;
  o.bind_atoms = m.rules().bind_atoms;
  return pullback(t->name, t->type, anf(t->kids[0], o), t->kids[1]);
}

Term rule_7(Machine&, const PullbackBody::Redex& r, const RuleInfo&) {
  const Term& t = r.node;
  return pullback(t->name, t->type, t->kids[0]->kids[0], t->kids[1]);
}

Rule<LetSeries>::Result rule_8(StageSlots slots) {
  return [slots = std::move(slots)](Machine&, const PullbackBody::Redex& r,
                                    const RuleInfo&) -> Term {
    const Term& t = r.node;
    const Term& body = t->kids[0];
    const Term& e = body->kids[0];
    const Term& rest = body->kids[1];
    const Type sigma = t->type;
    const Type rho = body->type;
    const Type wt = prod(sigma, rho);
    const std::string w = fresh_name_where("w", [&](const std::string& name) {
      return name == t->name || occurs_free(name, rest); // w ∉ FV(L) ∪ {y}
    });
    const auto [first, second] = slots(sigma, rho, var(w, wt));
    const Term l2 = substitute_in_turn(rest, t->name, first, body->name, second);
    return pullback(t->name, sigma, pair(var(t->name, sigma), e), pullback(w, wt, l2, t->kids[1]));
  };
}

} // namespace rules

} // namespace adsem::pullback
