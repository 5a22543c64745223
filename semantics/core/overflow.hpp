#pragma once
// IEEE overflow in the model's arithmetic (docs/model.md "Tolerance policy"): a primitive given
// finite arguments inside its domain returned inf or NaN (exp 1000, 1e200 * 1e200). The exact
// value is a finite real that a double cannot hold, so nothing computed from it (0 · inf = NaN
// in a derivative, 1 / inf = 0 in a primal) is a verdict: properties count the trial as the
// discard "overflow" (properties/core/discards.hpp), and the CLI reports an evaluation error.
#include "syntax/core/diagnostic.hpp"

#include <string>

namespace adsem::model {

class Overflow : public AdsemError {
public:
  // call: the primitive and its arguments, "exp(1000)". The message keeps the words
  // "non-finite ... (overflow)" that the calculi's machines have always used.
  explicit Overflow(const std::string& call)
      : AdsemError(ErrorKind::eval, "non-finite result of " + call + " (overflow)") {}
};

} // namespace adsem::model
