#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::props {
// Mak–Ong's differential-form pullback language (seed 000; spec mak-ong-pullback.md).
void register_pullback(Registry& registry);
} // namespace adsem::props
