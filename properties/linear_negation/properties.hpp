#pragma once
#include <vector>

#include "generators/linear_negation/terms.hpp"
#include "properties/core/property.hpp"

namespace adsem::linear_negation {

// The properties of spec §6 that run on generated terms (names "linear-negation/<name>").
std::vector<props::PropertyDef> properties();

// gradient-soundness on one source and point (the property draws them).
props::TrialResult gradient_soundness_at(const gen::Source& s, const props::PropertyContext& c);

} // namespace adsem::linear_negation
