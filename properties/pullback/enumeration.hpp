#pragma once
// pullback's bounded-exhaustive inputs (properties/core/enumeration.hpp): every closed term
// ⊢ M : R and ⊢ M : R* of the enumeration grammar (generators/pullback/enumeration.hpp): source
// terms, dual maps, covectors and gradient queries ((Ω λx:R. P)·ω) V, as the Term the
// properties' checks take. Closed terms: one input per term, no point.
#include <cstdint>
#include <memory>
#include <vector>

#include "properties/core/enumeration.hpp"
#include "properties/core/property.hpp"

namespace adsem::pullback {

// The seed of the probes soundness-of-steps, translation, simulation, dot-product-test and
// jacobian-bodies compare two values with (random model values of the free variables a premise
// step introduces, probe arguments at function types, the vectors u of a transpose and the
// directions v of a Jacobian body): fixed, so that an enumerated term has one verdict.
inline constexpr std::uint64_t enumeration_probe_seed = 20260522;

std::unique_ptr<props::InputEnumeration> enumeration(int max_size);
// Gives the properties that check one drawn term their check_input: round-trip, adequacy,
// subject-reduction, strong-normalisation, unique-decomposition, and soundness-of-steps,
// translation, simulation, dot-product-test and jacobian-bodies (their probes from
// enumeration_probe_seed).
void take_part_in_enumeration(std::vector<props::PropertyDef>& properties);

} // namespace adsem::pullback
