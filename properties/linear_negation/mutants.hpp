#pragma once
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::linear_negation {

std::vector<props::MutantDef> mutants();

} // namespace adsem::linear_negation
