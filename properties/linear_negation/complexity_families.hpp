#pragma once
// The program families of `adsem complexity linear-negation` (properties/core/complexity.hpp).
#include <vector>

#include "properties/core/complexity.hpp"

namespace adsem::linear_negation {

std::vector<props::ComplexityFamily> complexity_families();

} // namespace adsem::linear_negation
