#pragma once
// perturbative's bounded-exhaustive inputs (properties/core/enumeration.hpp): every closed term
// ⊢ M : R of the enumeration grammar (generators/perturbative/enumeration.hpp), for adequacy and
// strategy-agreement, whose checks take one closed term.
#include <memory>

#include "properties/core/enumeration.hpp"

namespace adsem::perturbative {

std::unique_ptr<props::InputEnumeration> enumeration(int max_size);

} // namespace adsem::perturbative
