#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::props {
// The pseudo-calculus `model`: properties of the shared numeric model itself (its three
// derivative oracles must agree), with the model's negative controls as mutants.
void register_model(Registry& registry);
} // namespace adsem::props
