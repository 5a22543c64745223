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

// A token recorded with a rule file (`--rules`) replays only with that file loaded, its hash
// unchanged: `user_rules` must then be it; a token without one refuses `user_rules`. Both are
// usage errors that name the file and the hashes.
ReplayOutcome replay(const Registry& registry, const ReplayToken& token,
                     const std::string& command_name = "adsem",
                     const std::shared_ptr<const UserRules>& user_rules = nullptr);

// Throws the usage error `replay` throws when the rule file given (`file`, "" = no --rules, of
// hash `hash`, "" = not read yet) is not the one `token` was recorded with.
void check_replay_rules(const ReplayToken& token, const std::string& file,
                        const std::string& hash = "");

} // namespace adsem::props
