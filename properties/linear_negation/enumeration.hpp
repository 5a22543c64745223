#pragma once
// linear-negation's bounded-exhaustive inputs (properties/core/enumeration.hpp): every closed term
// ⊢ t : R and ⊢ t : R × R of the enumeration grammar (generators/linear_negation/enumeration.hpp),
// its binders made unique as the reducer needs (spec §4.1). The input is the Typed term; the
// properties whose check runs S_rand run it at each of enumeration_seeds() (the seed a random
// trial draws), the probes of step-soundness at the same seed.
#include <cstdint>
#include <memory>
#include <vector>

#include "properties/core/enumeration.hpp"

namespace adsem::linear_negation {

const std::vector<std::uint64_t>& enumeration_seeds();
std::unique_ptr<props::InputEnumeration> enumeration(int max_size);

} // namespace adsem::linear_negation
