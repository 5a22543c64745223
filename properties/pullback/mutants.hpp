#pragma once
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::pullback {
// Named wrong variants of single rules (semantics/pullback: each is one `rules.is(...)` switch).
std::vector<props::MutantDef> mutants();
} // namespace adsem::pullback
