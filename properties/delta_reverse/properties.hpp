#pragma once
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::delta_reverse {

// The properties of spec §6 (stable names delta-reverse/<property>).
std::vector<props::PropertyDef> properties();

} // namespace adsem::delta_reverse
