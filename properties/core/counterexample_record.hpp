#pragma once
// A counterexample record (reports/campaign_result.hpp) from the trial that failed and the
// replay token that reproduces it.
#include <string>

#include "properties/core/calculus.hpp"
#include "properties/core/replay_token.hpp"
#include "reports/campaign_result.hpp"

namespace adsem::props {

// `trials_before`: the property's passing trials before the failing one; `command_name`: how
// the replay command is spelled.
reports::CounterexampleRecord make_record(const PropertyDef& def, const TrialResult& t,
                                          const ReplayToken& token, int trials_before,
                                          const std::string& command_name);

} // namespace adsem::props
