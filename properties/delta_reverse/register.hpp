#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::props {

// Krawiec et al. (seed 001): id delta-reverse, alias krawiec.
void register_delta_reverse(Registry& registry);

} // namespace adsem::props
