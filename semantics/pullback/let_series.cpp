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
  const Term body = anf(t->kids[r.hole], o);
  if (t->kind != Kind::pullback) { // a C_A hole of another node (a patched context table)
    auto n = make_shared_node<Node>(*t);
    n->kids[r.hole] = body;
    return n;
  }
  // [perf] The series' facts made at once: rule 8 asks its rest without making them (the
  // stages rebuild most of it), and at the first stage the substitution keeps most of a series
  // whose stages each read only the one before, stopping where facts say a subterm is untouched.
  facts(body);
  return pullback(t->name, t->type, body, t->kids[1]);
}

Term rule_7(Machine&, const PullbackBody::Redex& r, const RuleInfo&) {
  const Term& t = r.node;
  return pullback(t->name, t->type, t->kids[0]->kids[0], t->kids[1]);
}

Rule<LetSeries>::Result rule_8(StageSlots slots) {
  return [slots = std::move(slots)](Machine& m, const PullbackBody::Redex& r,
                                    const RuleInfo&) -> Term {
    const Term& t = r.node;
    const Term& body = t->kids[0];
    const Term& e = body->kids[0];
    const Term& rest = body->kids[1];
    const Type sigma = t->type;
    const Type rho = body->type;
    const Type wt = prod(sigma, rho);
    Term l2;            // L[w.1/y][w.2/x], made with the candidate that passes
    bool atoms = false; // the slots substituted are atoms
    // [perf] The rest the last stage built is held by this let alone, and the let by the redex,
    // which the run drops for the contractum: L is then edited in place (the same term).
    const bool in_place = body.use_count() == 1 && !body->keyed_mark.get() && m.holds_alone(t);
    const std::string w = fresh_name_where("w", [&](const std::string& name) {
      if (name == t->name) return true; // w ∉ FV(L) ∪ {y}
      const auto [first, second] = slots(sigma, rho, var(name, wt));
      l2 = in_place ? substitute_stage_in_place(rest, name, t->name, first, body->name, second)
                    : substitute_stage(rest, name, t->name, first, body->name, second);
      atoms = is_atom(first) && is_atom(second);
      return l2 == nullptr;
    });
    // [perf] The next stage asks whether L[w.1/y][w.2/x] is a let series (is_final), and the
    // substitution rebuilt every let that mentions y or x, so the machine would walk the whole
    // rest again at every stage. It is one when L is and the slots are atoms: r.final says that
    // let x = E in L is a let series, so a let L is one too; substituting atoms for variables
    // (binders renamed, not restructured) keeps an atom an atom, hence an elementary term
    // elementary (anf.cpp: each case asks only atoms, numerals and let series of its kids), a let
    // series' bound terms elementary and its last variable its last let's (that variable is
    // bound, never substituted). A slot that is not an atom (a mutant's) is not told.
    if (r.final && atoms && rest->kind == Kind::let && l2->kind == Kind::let)
      m.remember_let_series(l2);
    return pullback(t->name, sigma, pair(var(t->name, sigma), e), pullback(w, wt, l2, t->kids[1]));
  };
}

} // namespace rules

} // namespace adsem::pullback
