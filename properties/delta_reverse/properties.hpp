#pragma once
#include <vector>

#include "properties/core/property.hpp"
#include "properties/delta_reverse/support.hpp"

namespace adsem::delta_reverse {

// The properties of spec §6 (stable names delta-reverse/<property>).
std::vector<props::PropertyDef> properties();

// forward-correctness and reverse-correctness on one drawn program, point and tangent (tests).
props::TrialResult forward_correctness_at(const support::Drawn& d, const Value& ds,
                                          const props::PropertyContext& context);
props::TrialResult reverse_correctness_at(const support::Drawn& d, const Value& dt,
                                          const props::PropertyContext& context);

} // namespace adsem::delta_reverse
