#pragma once
// Which entries of delta-reverse's rule book are primitive operations, and how many arithmetic
// operations one firing performs: the cheap-gradient constant ω of `adsem complexity`
// (properties/core/operation_weights.hpp states the weighting).
#include "properties/core/operation_weights.hpp"

namespace adsem::delta_reverse {

props::OperationWeights operation_weights();

} // namespace adsem::delta_reverse
