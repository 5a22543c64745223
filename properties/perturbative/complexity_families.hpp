#pragma once
// The program families of `adsem complexity perturbative` (properties/core/complexity.hpp).
#include <vector>

#include "properties/core/complexity.hpp"

namespace adsem::perturbative {

std::vector<props::ComplexityFamily> complexity_families();

} // namespace adsem::perturbative
