#pragma once
#include "properties/core/calculus.hpp"

namespace adsem::cli {
// Every calculus of the toolkit: each properties/<calc>/ folder contributes one
// `register_<calc>(Registry&)`, called here.
props::Registry builtin_registry();
} // namespace adsem::cli
