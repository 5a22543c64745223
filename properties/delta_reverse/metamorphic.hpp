#pragma once
#include "properties/core/property.hpp"

namespace adsem::delta_reverse {

// Spec §6 P20: semantics-preserving rewrites leave R{e} and F{e} unchanged up to rounding.
props::PropertyDef metamorphic_invariance();

} // namespace adsem::delta_reverse
