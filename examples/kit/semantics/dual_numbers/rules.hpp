#pragma once
// dual-numbers' rule book: call-by-value β, the projections and the primitives' δ-rules, then the
// clauses of the forward macro D, each once, with its citation, kinds, side condition and result.
#include "semantics/dual_numbers/relations.hpp"

namespace adsem::dual_numbers {

// The paper's rules, built once and shared.
const RulesPtr& paper_rules();
// D on types: D(real) = real × real, D(τ × σ) = Dτ × Dσ, D(τ → σ) = Dτ → Dσ.
Type d_type(const Type& t);

// The pieces of D's clauses on primitives, for patches of them (properties/dual_numbers/mutants):
// D(real), the projections π_i p of a bound dual p, and the clause of a binary primitive
// (λp:D real. λq:D real. ⟨value, tangent⟩) (D t) (D s).
const Type& dual();
Term dual_part(int index, const char* p);
Term binary(const Macro::Redex& r, Term value, Term tangent);

} // namespace adsem::dual_numbers
