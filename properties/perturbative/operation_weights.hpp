#pragma once
// Which entries of perturbative's rule book are primitive operations, and how many arithmetic
// operations one firing performs: the cheap-gradient constant ω of `adsem complexity`
// (properties/core/operation_weights.hpp states the weighting).
#include "properties/core/operation_weights.hpp"

namespace adsem::perturbative {

props::OperationWeights operation_weights();

} // namespace adsem::perturbative
