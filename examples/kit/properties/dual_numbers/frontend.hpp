#pragma once
// The per-term commands (type, eval, reduce, denote, grad) for dual-numbers.
#include <memory>

#include "properties/core/calculus.hpp"

namespace adsem::dual_numbers {

std::shared_ptr<const props::Frontend> frontend();

} // namespace adsem::dual_numbers
