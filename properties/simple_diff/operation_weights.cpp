// Abadi–Plotkin's primitive operations (seed 003 Fig. 2): only the O-rules compute on reals. The
// symbolic rules S-add and S-op record op(V) in the trace without calling ev (Fig. 4), and the
// R-rules of Fig. 6 (and R-fast) build the derivative term, whose arithmetic then fires as O-add
// and O-op when it is evaluated: they weigh 0, as do the structural O-rules (memory moves).
#include "properties/simple_diff/operation_weights.hpp"

namespace adsem::simple_diff {

props::OperationWeights operation_weights() {
  return {{
      {"O-add", 1, "V + W ⇒ r + s: one addition"},
      // mul, sin, cos, tanh, exp alike: the entry does not tell them apart (ν = π = 1)
      {"O-op", 1, "op(V) ⇒ ev(op, ρ(V)): one primitive"},
      {"O-pred", 1, "pred(V) ⇒ bev(pred, ρ(V)): one comparison"},
  }};
}

} // namespace adsem::simple_diff
