#pragma once
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::props {
// The properties of the pseudo-calculus `model` (properties/model/model_properties.cpp).
std::vector<PropertyDef> model_properties();
std::vector<MutantDef> model_mutants();
} // namespace adsem::props
