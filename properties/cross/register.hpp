#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::props {

// Registers the pseudo-calculus "cross". Call it after the five calculi: it takes
// their front ends from the registry (a calculus that is not registered is left out).
void register_cross(Registry& registry);

} // namespace adsem::props
