#pragma once
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::linear_negation {

// The properties of spec §6 that run on generated terms (names "linear-negation/<name>").
std::vector<props::PropertyDef> properties();

} // namespace adsem::linear_negation
