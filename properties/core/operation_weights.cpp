#include "properties/core/operation_weights.hpp"

namespace adsem::props {

const char* to_string(AdMode mode) {
  return mode == AdMode::forward ? "forward" : "reverse";
}

// Griewank and Walther, Evaluating Derivatives (2nd ed.): the tangent's work is within
// [2, 5/2] times the function's (§4.5), the gradient's within [3, 4] times (§4.6).
double cheap_gradient_bound(AdMode mode) {
  return mode == AdMode::forward ? 2.5 : 4.0;
}

} // namespace adsem::props
