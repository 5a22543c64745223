// Manzyuk's calculus computes on reals only through the constant rules the spec adds (§4.5):
// delta applies a primitive to a numeral, nu adds two numerals under the same λ/ι context (the
// bag sum of reals). beta, the projections (times1/2), T, delta-T (which only unfolds the
// pushforward template of p; the template's primitives then fire as delta) and the T_x clauses
// of Fig. 4 move terms and weigh 0.
#include "properties/perturbative/operation_weights.hpp"

namespace adsem::perturbative {

props::OperationWeights operation_weights() {
  return {{
      // mul, sin, cos, tanh, exp alike (ν = π = 1)
      {"delta", 1, "p N → numeral(p(v)): one primitive"},
      {"nu", 1, "L[r1] + L[r2] → L[r1 + r2]: one addition"},
  }};
}

} // namespace adsem::perturbative
