#pragma once
#include "properties/core/property.hpp"

namespace adsem::delta_reverse {

// Spec §6 P20: semantics-preserving rewrites leave R{e} and F{e} unchanged up to rounding.
props::PropertyDef metamorphic_invariance();
// The same for let-inlining, let-floating, η-expansion and case-of-known-constructor, with the
// tape's bindings changing as the real primitive calls do (metamorphic_rewrites.cpp).
props::PropertyDef metamorphic_rewrites();

} // namespace adsem::delta_reverse
