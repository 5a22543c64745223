#pragma once
// The perturbative mutants (semantics/perturbative/mutants.hpp) with bug classes and the
// properties expected to kill them.
#include <vector>

#include "properties/core/property.hpp"

namespace adsem::perturbative {

std::vector<props::MutantDef> mutants();

} // namespace adsem::perturbative
