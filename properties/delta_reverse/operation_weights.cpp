// Krawiec et al.'s arithmetic (seed 001): the source evaluation applies primitives (δ_op, one
// step of spec §4.1's cost model); the target code of Drev applies the same primitives and the
// partials' primitives; the Delta interpretations multiply the cotangent by a Scale factor and
// add it into the gradient at a Var (Fig. 10 eval, L501-522; the §7.3 array sweep, L585-597;
// Fig. 8 eval_2, L392-401). Add nodes only pass the cotangent on to both summands, and the Let,
// Zero, monad, runDelta and translation steps move values: they weigh 0. Reverse #1's dense δS
// operations (oplus, otimes, oplus-zero, Fig. 5) act on vectors of a reals each: their scalar
// operations are the run's dense_flops, which the family adds instead of a per-firing weight.
#include "properties/delta_reverse/operation_weights.hpp"

namespace adsem::delta_reverse {

props::OperationWeights operation_weights() {
  return {{
      // the primitives of the source and of Drev's target code alike (ν = π = 1)
      {"E-Apply-Op", 1, "δ_op v: one primitive"},
      {"eval-Scale", 1, "eval x (Scale y u) m = eval (x × y) u m: one multiplication"},
      {"eval-Var", 1, "eval x (Var id) m = m[id] += x: one addition"},
      {"sweep-Scale", 1, "Scale y u: x × y swept into u: one multiplication"},
      {"sweep-Var", 1, "Var id: grad[id] += x: one addition"},
      {"eval2-Scale", 1, "eval_2 x (Scale y u) = eval_2 (x × y) u: one multiplication"},
      {"eval2-OneHot", 1, "eval_2 x (OneHot id): acc[id] += x: one addition"},
  }};
}

} // namespace adsem::delta_reverse
