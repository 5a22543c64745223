// Brunel–Mazza–Pagani's arithmetic rules (seed 002 Table 2, §4): (12) adds two numerals, (14)
// multiplies them, (23) applies a primitive f to numerals. (13) only splits a sum of pairs into
// sums of components, which then fire as (12); linear factoring (17) regroups x t + x t' into
// x (t + t'), whose sum fires as (12) too; the substitution and garbage rules (7)-(11), (16) move
// terms (one step each in the paper's measure). All of those weigh 0.
#include "properties/linear_negation/operation_weights.hpp"

namespace adsem::linear_negation {

props::OperationWeights operation_weights() {
  return {{
      {"sum-12", 1, "(12) r α + q β → (r+q) α β: one addition"},
      {"mul-14", 1, "(14) r α · q β → (r·q) α β: one multiplication"},
      // sin, cos, tanh, exp, ... and their derivatives (ν = 1)
      {"prim-23", 1, "(23) f(r1 α1, …, rk αk) → ⟦f⟧(r1,…,rk) α1 … αk: one primitive"},
  }};
}

} // namespace adsem::linear_negation
