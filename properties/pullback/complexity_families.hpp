#pragma once
// The program families of `adsem complexity pullback` (properties/core/complexity.hpp).
#include <vector>

#include "properties/core/complexity.hpp"

namespace adsem::pullback {

std::vector<props::ComplexityFamily> complexity_families();

} // namespace adsem::pullback
