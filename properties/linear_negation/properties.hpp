#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "generators/linear_negation/terms.hpp"
#include "properties/core/property.hpp"
#include "semantics/linear_negation/denotation.hpp"

namespace adsem::linear_negation {

// The properties of spec §6 that run on generated terms (names "linear-negation/<name>").
std::vector<props::PropertyDef> properties();

// gradient-soundness on one source and point (the property draws them).
props::TrialResult gradient_soundness_at(const gen::Source& s, const props::PropertyContext& c);

// step-soundness on one closed term, under S_rand with the given seed (the property draws both),
// every denotation of the trial within one work cap; the probes' seed drawn at each comparison
// unless given (an enumerated input's).
props::TrialResult step_soundness_at(const Typed& t, std::uint64_t strategy_seed,
                                     const props::PropertyContext& c,
                                     long work_cap = model::work_cap,
                                     std::optional<std::uint32_t> probe_seed = std::nullopt);

} // namespace adsem::linear_negation
