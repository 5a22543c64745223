#pragma once
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::delta_reverse {

std::vector<props::MutantDef> mutants();

} // namespace adsem::delta_reverse
