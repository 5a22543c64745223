#pragma once
#include "properties/core/property.hpp"

namespace adsem::delta_reverse {

// Theorem 4 (the fundamental property of the Kripke logical relation, L784-787; spec §6 P8),
// executable at a point.
props::PropertyDef fundamental_property();

} // namespace adsem::delta_reverse
