#pragma once
// The program families of `adsem complexity delta-reverse` (properties/core/complexity.hpp).
#include <vector>

#include "properties/core/complexity.hpp"

namespace adsem::delta_reverse {

std::vector<props::ComplexityFamily> complexity_families();

} // namespace adsem::delta_reverse
