#pragma once
// The campaign engine's only door to RapidCheck: a property body (PropertyDef::body) run under
// rc::detail::checkProperty, its TrialResults counted into statistics and its shrunk failure
// turned into a counterexample record. The .cpp is the one file that includes RapidCheck's
// private headers (rapidcheck/detail/...).
#include <functional>
#include <optional>
#include <string>

#include "properties/core/chunk_run.hpp"

namespace adsem::props {

// Runs one chunk: spec.trials cases from spec.token's seed. `on_trial_start` is called before
// each case, `on_case` after each generated case (not shrink attempts).
ChunkRun run_chunk(const ChunkSpec& spec, std::function<void()> on_trial_start = {},
                   std::function<void(const TrialResult&)> on_case = {});

// Re-runs what a replay token names: its one recorded case (the reproduce path), or its whole
// chunk from the seed when token.chunk_trials > 0 (a crash or timeout record).
struct TokenRun {
  std::optional<TrialResult> failure; // the failing case, when the property still fails
  std::string error;                  // RapidCheck's description of an Error, if any
  // A whole chunk's run: how many trials ran (discarded ones too, as a campaign counts them for
  // its per-trial timeout) and the slowest one's CPU time, which tells whether a timeout record
  // is still over the limit.
  int trials = 0;
  int slowest_trial = 0; // 1-based
  double slowest_cpu_seconds = 0.0;
};
TokenRun run_token(const PropertyDef& def, const PropertyContext& context,
                   const ReplayToken& token);

} // namespace adsem::props
