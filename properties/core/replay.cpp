#include "properties/core/replay.hpp"

#include <fmt/format.h>

#include "properties/core/campaign.hpp"
#include "properties/core/counterexample_record.hpp"
#include "properties/core/rapidcheck_adapter.hpp"
#include "properties/core/user_rules.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {

void check_replay_rules(const ReplayToken& token, const std::string& file,
                        const std::string& hash) {
  if (token.rules.empty() && !file.empty())
    throw AdsemError(ErrorKind::usage,
                     fmt::format("--rules {}: this replay token was recorded without a rule "
                                 "file; replay it without --rules",
                                 file));
  if (token.rules.empty()) return;
  if (file.empty())
    throw AdsemError(ErrorKind::usage,
                     fmt::format("this replay token was recorded with --rules {} (hash {}): "
                                 "give --rules FILE to replay it",
                                 token.rules.file, token.rules.hash));
  if (!hash.empty() && hash != token.rules.hash)
    throw AdsemError(ErrorKind::usage,
                     fmt::format("--rules {}: the file's hash is {}, but the replay token was "
                                 "recorded with rule file {} of hash {}: the rules changed, so "
                                 "the replay would not be the run that was recorded",
                                 file, hash, token.rules.file, token.rules.hash));
}

ReplayOutcome replay(const Registry& registry, const ReplayToken& token,
                     const std::string& command_name,
                     const std::shared_ptr<const UserRules>& user_rules) {
  const PropertyDef* def = registry.find_property(token.property);
  if (!def)
    throw AdsemError(ErrorKind::usage,
                     fmt::format("replay token names property '{}', which this adsem does not "
                                 "have (stale token?)",
                                 token.property));
  if (!token.mutant.empty() && !registry.find_mutant(token.mutant))
    throw AdsemError(
        ErrorKind::usage,
        fmt::format("replay token names unknown mutant '{}' (stale token?)", token.mutant));
  check_replay_rules(token, user_rules ? user_rules->file : "", user_rules ? user_rules->hash : "");
  if (user_rules && user_rules->calculus != token.calculus)
    throw AdsemError(ErrorKind::usage,
                     fmt::format("--rules {}: loaded for {}, but the replay token is of {}",
                                 user_rules->file, user_rules->calculus, token.calculus));
  const PropertyContext context{token.mutant, token.overrides, user_rules};
  const TokenRun run = run_token(*def, context, token);

  ReplayOutcome replayed;
  if (run.failure) {
    replayed.reproduced = true;
    replayed.record = make_record(*def, *run.failure, token, 0, command_name);
    replayed.message = fmt::format("{}: counterexample reproduced", def->name);
  } else if (token.chunk_trials > 0 && run.error.empty()) {
    // A crash or timeout record: the chunk ran whole in this process, without the campaign's
    // per-trial timeout, so say how slow its slowest trial still is.
    replayed.message = fmt::format(
        "{}: the recorded chunk no longer fails: its {} trials ran without a crash, the slowest "
        "(trial {}) in {:.2f} s of CPU (a campaign's --trial-timeout is {} s unless set)",
        def->name, run.trials, run.slowest_trial, run.slowest_cpu_seconds,
        CampaignOptions{}.trial_timeout_seconds);
  } else if (!run.error.empty()) {
    replayed.message =
        fmt::format("{}: the recorded input no longer fails ({})", def->name, run.error);
  } else {
    replayed.message = fmt::format("{}: the recorded input no longer fails", def->name);
  }
  return replayed;
}

} // namespace adsem::props
