#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::dual_numbers {

// Adds the calculus to a registry (examples/kit/main.cpp calls it on cli::builtin_registry()).
void register_dual_numbers(props::Registry& registry);

} // namespace adsem::dual_numbers
