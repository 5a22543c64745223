#pragma once
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::pullback {
// The executable properties of spec §6, each citing its theorem/lemma and seed lines.
std::vector<props::PropertyDef> properties();
} // namespace adsem::pullback
