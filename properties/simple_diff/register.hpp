#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::props {
// Adds the calculus simple-diff (alias abadi-plotkin): Abadi & Plotkin, "A Simple
// Differentiable Programming Language" (POPL 2020).
void register_simple_diff(Registry& registry);
} // namespace adsem::props
