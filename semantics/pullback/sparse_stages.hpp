#pragma once
// An extension of seed 000's mechanism, not the paper's (mechanism `pullback-sparse`; docs
// calculi/pullback.md "Extension: flat stages and sparse covectors"). It runs the paper's phases on
// the gradient query ((Ω λy.P)·Ω[c]) V of a first-order Euclidean body P:
// - Divide: the compact ANF of §3.2 (L205-219, ID-9), one bound term at a time, so that P becomes
//   the let series z₁ = E₁; …; zₙ = Eₙ.
// - Split: rule 8 (L240) would bind stage k to a tuple w_k : σ×ρ₁×…×ρ_{k-1} nested one pair deeper
//   per stage, so that a variable bound j stages earlier is the path w_k.1…1.2 of length j, and
//   rule 20a's forward argument ⟨V, E[V/w]⟩ (L248) projects it in j rule-2 steps: quadratic on any
//   series whose stages read far back (spec §9 pitfall 4). Here the stage tuple is flat: an
//   environment from each zᵢ to its slots in one value store (the tape, L17), read in O(1).
// - Conquer: the row of Fig. 3 (L240-248) that fits Eₖ (11/12 atom, 10 sum, 13 pair, 15 f̲(y_p),
//   9 closed), evaluated once forward, its Jacobian kept as the local partials of Eₖ.
// - Combine: rule 5⁺ (L363-365) on a sparse covector (spec §9 pitfalls 3-4): the cotangent is held
//   slot by slot over the store, stage k reads only its own slots and adds into the slots its Eₖ
//   reads; the identity part ⟨v, S⟩ of the stage's dual map is "leave every other slot as it is",
//   which costs nothing. A stage whose cotangent is zero is skipped (rule 9 / 20b and the Z-rules).
// The work per stage is a constant (the size of Eₖ), so time and memory are linear in n. The
// results equal the paper mechanism's on the same queries (property pullback/sparse-stages-agree).
#include <optional>
#include <string>
#include <vector>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

struct SparseGradient {
  std::vector<double> value;    // P[V/y], flattened
  std::vector<double> gradient; // cᵀ 𝒥(λy.P)(V), empty when only the forward phase ran
  // The extension's own steps: A* once; per stage one split (rule 8's) and one conquer (the
  // row's) step; per stage with a non-zero cotangent one sparse 5⁺ step; the final ω W → c*.
  long steps = 0;
  long forward_steps = 0; // the primal's share: one per stage (the let / β step binding it)
  std::size_t stages = 0;
};

// nullopt when P leaves the first-order Euclidean fragment (λ, application, dual maps, pullbacks,
// 𝒥f̲, covectors): there the paper's rules (and rule 6, spec §9.3) are the mechanism. With
// reverse = false only the forward phase runs (the primal (λy.P) V on the same stages).
std::optional<SparseGradient> sparse_stage_gradient(const Term& body, const std::string& y,
                                                    const Type& sigma,
                                                    const std::vector<double>& point,
                                                    const std::vector<double>& cotangent,
                                                    bool reverse = true);

} // namespace adsem::pullback
