#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::props {

// The perturbative λ-calculus (Manzyuk 2012, seed 004): id "perturbative", alias "manzyuk".
void register_perturbative(Registry& registry);

} // namespace adsem::props
