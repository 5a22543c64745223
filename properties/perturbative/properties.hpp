#pragma once
// The executable properties of spec §6 for the perturbative calculus (names
// "perturbative/<property>").
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::perturbative {

std::vector<props::PropertyDef> properties();

} // namespace adsem::perturbative
