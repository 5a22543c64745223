#pragma once
// The array extension of Krawiec et al. (§10.2, L848-862; spec §4.10): Vector A with index_A and
// build_A, constants given their own typing rules (footnote 12, L864), and Drev's sequence_A. The
// seed lost the section's translation figure; spec §4.10 reconstructs it from the text:
//   Dfwd{index_A} = index_{Dfwd A}      Dfwd{build_A} = build_{Dfwd A}      (and Drev1, Drev2)
//   Drev{index_A} = pure (λp. pure (index_{Drev A} p))
//   Drev{build_A} = pure (λp. sequence_{Drev A} (build_{M Drev A} p))
// where sequence_A : Vector (M A) → M (Vector A) runs the elements in index order 0..n-1 (L856):
// the ids of the elements' deltaLets then follow the order of the elements, and the tape stays in
// allocation order (spec §9.12). N is read as Int: a negative length or an index out of range is
// a domain error, as a primitive outside its domain is.
//
// sumV[A] : Vector A → A sums a vector (spec §9.12: the language has no fold, so a reduction over
// a vector needs a primitive; an extension the spec suggests, not a rule of the paper). Source
// programs sum reals (`sumV`, A = Real); the translations sum dual numbers, whose partials are
// all 1 (Fig. 9's +R, L479-481, for n summands):
//   Dfwd{sumV} = sumV[R × R]    Drev1{sumV} = sumV[R × δS]    Drev2{sumV} = sumV[R × Delta2]
//   Drev{sumV} = pure (λv. let p = sumV[R × Delta] v in do { d <- deltaLet (snd p); pure (fst p,
//   Var d) })
// so Drev's one binding has the rhs Add(...Add(u_0, u_1)..., u_(n-1)), O(n) nodes (Fig. 14).
#include <string>
#include <vector>

#include "semantics/delta_reverse/machine.hpp"

namespace adsem::delta_reverse::source_rules {

// (E-Array-Op)  index[A] ⇓ index, build[A] ⇓ build (function values, as E-Op's primitives)
Next e_array_op(Machine& m, const SourceEval::Redex& r, const RuleInfo&);
bool applies_index(const Machine&, const Apply::Redex& r);
bool applies_build(const Machine&, const Apply::Redex& r);
// (E-Apply-Index)  index applied to (v, i) ⇓ v_i
Value apply_index(Machine& m, const Apply::Redex& r, const RuleInfo&);
// (E-Apply-Build)  build applied to (n, f) ⇓ [f 0, ..., f (n-1)], the calls in index order
Value apply_build(Machine& m, const Apply::Redex& r, const RuleInfo&);
// (E-Apply-SumV)  sumV[A] applied to [v_0, ..., v_(n-1)] ⇓ (...(v_0 + v_1) + ...) + v_(n-1),
// + componentwise on A (addR on reals, Add on Deltas and Delta2s, ⊕ on δS), 0_A for n = 0
bool applies_sum_v(const Machine&, const Apply::Redex& r);
Value apply_sum_v(Machine& m, const Apply::Redex& r, const RuleInfo&);
// The sum E-Apply-SumV gives, of the items of a vector of type Vector A.
Value sum_items(Machine& m, const Type& a, const std::vector<Value>& items);
std::string array_op_detail(const Machine&, const Apply::Redex& r);
// (M-Sequence)  sequence [m_0, ..., m_(n-1)]: each m_i run on the DeltaState in index order
bool is_vector(const MonadRun&, const Monad::Redex& r);
RunNext m_sequence(MonadRun& c, const Monad::Redex& r, const RuleInfo&);

} // namespace adsem::delta_reverse::source_rules
