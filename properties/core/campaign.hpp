#pragma once
// The campaign engine: runs properties on RapidCheck (checkProperty), in seeded chunks so that a
// wall-clock budget and shards are possible while runs with --trials stay bit-for-bit
// deterministic; turns trial results into statistics and counterexample records.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "properties/core/calculus.hpp"
#include "properties/core/health.hpp"
#include "properties/core/property_selection.hpp"
#include "properties/core/replay.hpp"
#include "properties/core/replay_token.hpp"
#include "properties/core/shard.hpp"
#include "reports/campaign_result.hpp"

namespace adsem::props {

struct ProgressEvent {
  enum class Kind { property_started, chunk_finished, property_finished };
  Kind kind;
  const reports::PropertySummary& summary; // the running property's statistics so far
  int property_index = 0;                  // 0-based
  int property_count = 0;
  int counterexamples_so_far = 0;
};

// Per-property settings (from a config file): they replace the campaign-wide ones for one property.
struct PropertyConfig {
  std::optional<int> trials;
  std::optional<int> max_size;
  Overrides overrides; // merged over the campaign's --set overrides
  friend bool operator==(const PropertyConfig&, const PropertyConfig&) = default;
};

struct CampaignOptions {
  std::vector<std::string> calculi;    // ids or aliases; empty = all
  std::vector<std::string> properties; // full names or "<calc>/<suffix>"; empty = all
  std::vector<std::string> kinds; // property kinds (adequacy, soundness, cost, ...); empty = all
  std::optional<int> trials;      // per property (cases tried: passed + failed + discarded)
  std::optional<double> time_seconds; // whole-campaign wall-clock budget, split fairly
  std::uint64_t seed = 0;
  Shard shard;
  std::string mutant; // full mutant name or ""
  // A user's rule file joined to the selected calculus's semantics (user_rules.hpp); null = none.
  std::shared_ptr<const UserRules> user_rules = nullptr;
  Overrides overrides;
  std::optional<int> max_size; // overrides each property's default size ceiling
  int chunk_size = 25;         // trials per RapidCheck run (granularity of time checks, shards)
  // Where results.jsonl is streamed (flushed per record); final reports are the caller's job.
  std::optional<std::filesystem::path> stream_dir;
  std::function<void(const ProgressEvent&)> on_progress;
  const std::atomic<bool>* stop_requested = nullptr; // set by SIGINT/SIGTERM handlers
  std::string command_name = "adsem";                // how replay commands are spelled in reports
  HealthPolicy health;
  // Failure corpus (corpus.hpp): replayed first, and every new counterexample saved to it.
  std::optional<std::filesystem::path> corpus_dir;
  std::map<std::string, PropertyConfig> property_config; // full property name -> settings
  // Crash isolation (isolation.hpp): each chunk runs in a forked child process; a trial that
  // dies by a signal or runs longer than trial_timeout_seconds becomes a counterexample with
  // outcome "crash" or "timeout", and the campaign goes on with the next property.
  bool isolate = false;
  double trial_timeout_seconds = 10.0; // only with isolate; <= 0 = none
  // Only with isolate: a trial whose worker's resident memory goes above this is killed and
  // counted as a "resource" discard (the rest of its chunk is skipped); 0 = no ceiling.
  std::size_t max_resident_bytes = 0;
  // Worker processes at once (only with isolate): chunks of different properties, or of one
  // property, run in parallel; with --trials the result is the one jobs = 1 gives.
  int jobs = 1;
};

// Defaults when neither --trials nor --time is given.
inline constexpr double default_campaign_seconds = 60.0;

// Runs the selected properties (parallel_campaign.hpp with jobs > 1). Throws AdsemError(usage)
// for unknown calculi, properties or mutants. The result is complete unless *stop_requested
// became true.
reports::CampaignResult run_campaign(const Registry& registry, const CampaignOptions& options);

} // namespace adsem::props
