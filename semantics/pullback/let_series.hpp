#pragma once
// The pullback (Ω λy:σ.P)·S before conquering: A-normalisation as one macro step (A*, §3.2
// L205-219, App. B; spec §4.2) and the let-series rules 7 and 8 (Fig. 3 L236-240; spec §4.3).
#include <functional>
#include <utility>

#include "semantics/pullback/relations.hpp"

namespace adsem::pullback {

// How rule 8 reads the stage tuple w : σ×ρ back into y : σ and x : ρ (as printed: w.1, w.2).
using StageSlots =
    std::function<std::pair<Term, Term>(const Type& sigma, const Type& rho, const Term& w)>;
std::pair<Term, Term> stage_slots(const Type& sigma, const Type& rho, const Term& w);

namespace rules {

// (A*) (Ω λy.P)·S → (Ω λy.ANF(P))·S
Term a_star(Machine&, const PullbackBody::Redex&, const RuleInfo&);
// (7) (Ω λy.let x = E in x)·ω → (Ω λy.E)·ω
Term rule_7(Machine&, const PullbackBody::Redex&, const RuleInfo&);
// (8) (Ω λy.let x = E in L)·ω → (Ω λy.⟨y,E⟩)·((Ω λw.L[w.1/y][w.2/x])·ω), w : σ×ρ fresh
Rule<LetSeries>::Result rule_8(StageSlots slots);

} // namespace rules

} // namespace adsem::pullback
