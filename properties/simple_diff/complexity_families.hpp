#pragma once
// The program families of `adsem complexity simple-diff` (properties/core/complexity.hpp).
#include <vector>

#include "properties/core/complexity.hpp"

namespace adsem::simple_diff {

std::vector<props::ComplexityFamily> complexity_families();

} // namespace adsem::simple_diff
