#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::props {

// Brunel–Mazza–Pagani's λ-calculus with linear negation (seed 002): id "linear-negation",
// alias "bmp".
void register_linear_negation(Registry& registry);

} // namespace adsem::props
