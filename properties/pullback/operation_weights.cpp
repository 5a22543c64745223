// Mak–Ong's arithmetic (seed 000 §3.4, Fig. 3): rule 3 evaluates a primitive on a numeral, rule 4
// applies its Jacobian at a point to a vector, rule 5 its transposed Jacobian to a covector, and
// 5+ (spec §4.6 [X]) transposes any numeric linear map (λv.B)* — on the complexity families it is
// 5+, not 5, that fires for the gradient query's Jacobians; N1 and N3 add numerals and numeral
// covectors (spec §4.6 numeral folding; a fused run of N1 over a flat sum counts one firing per
// addition). Rules 4 and 5 weigh 2, the work of the common unary case: the partial ψ′(r) and one
// product (a k-input primitive does k products and k − 1 sums besides its k partials, which one
// firing count cannot see). 5+ weighs 1: what one firing computes depends on B (a primitive's
// Jacobian: partials and products; a projection or a copy of v: nothing), so 1 is a middle
// reading. The reduction rules that move terms (1, 2, 6-20b, let, N2, the Z and Sigma rules of
// ≡) weigh 0.
#include "properties/pullback/operation_weights.hpp"

namespace adsem::pullback {

props::OperationWeights operation_weights() {
  return {{
      // mult, add, sin, tanh, … alike (ν = π = 1)
      {"3", 1, "f̲(r̲) → the numeral tuple of f(r): one primitive"},
      {"4", 2, "(𝒥f̲·r̲) r̲' → 𝒥(f)(r')·r: a partial and a product"},
      {"5", 2, "(λv.(𝒥f̲·v) r̲)*·r̲'* → ((𝒥f(r))ᵀ r')*: a partial and a product"},
      {"5+", 1, "(λv.B)*·c* → (Bᵀc)*: one operation (B's Jacobian or a projection)"},
      {"N1", 1, "r̲₁ + r̲₂ → (r₁+r₂): one addition"},
      {"N3", 1, "r̲₁* + r̲₂* → (r₁+r₂)*: one addition"},
  }};
}

} // namespace adsem::pullback
