#pragma once
// `adsem replay TOKEN`: re-run the counterexample a replay token names.
#include <optional>
#include <string>

#include "properties/core/calculus.hpp"
#include "properties/core/replay_token.hpp"
#include "reports/campaign_result.hpp"

namespace adsem::props {

struct ReplayOutcome {
  bool reproduced = false;                             // the property still fails on this input
  std::optional<reports::CounterexampleRecord> record; // when reproduced
  std::string message;                                 // what happened, one line
};

ReplayOutcome replay(const Registry& registry, const ReplayToken& token,
                     const std::string& command_name = "adsem");

} // namespace adsem::props
