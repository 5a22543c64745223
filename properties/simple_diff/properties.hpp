#pragma once
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::simple_diff {
// The executable properties of spec §6 (seed 003 Sections 3-6), named "simple-diff/<name>".
std::vector<props::PropertyDef> properties();
} // namespace adsem::simple_diff
