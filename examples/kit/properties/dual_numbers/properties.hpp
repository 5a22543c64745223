#pragma once
// dual-numbers' properties: what the paper proves of the language and of D, checked on random
// well-typed terms.
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::dual_numbers {

std::vector<props::PropertyDef> properties();

} // namespace adsem::dual_numbers
