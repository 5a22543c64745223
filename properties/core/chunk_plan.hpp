#pragma once
// How one visit to a property cuts its trials into chunks and runs them, wherever they run
// (in-process, or in a worker process of an isolated campaign). A property is visited once with
// --trials alone, twice under a time budget (run_campaign: first up to its floor of trials, then
// for its share); with --jobs its chunks are spread over several visits that run at once.
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>

#include "properties/core/campaign.hpp"
#include "properties/core/chunk_run.hpp"

namespace adsem::props {

using Clock = std::chrono::steady_clock;

struct PropertyPlan {
  const PropertyDef& def;
  const PropertyContext& context;
  const CampaignOptions& options;
  std::optional<int> trials; // per property (config or campaign); none: until the deadline
  int max_size = 0;
  int first_chunk = 0;          // where this visit starts (earlier visits ran the chunks before)
  std::optional<int> end_chunk; // this visit runs no chunk at or after this one
  int passed_before = 0;        // passes of the property in earlier visits
  int tested_before = 0;        // its non-discarded trials in earlier visits
  std::optional<int> floor;     // stop once this many non-discarded trials ran (the first visit)
  Clock::time_point deadline;   // no chunk starts at or after this
  const std::atomic<bool>* stop = nullptr;
};

// Where a visit stopped: the chunk the next visit starts at, and whether the property is done
// (a failure or error ended it, or --trials has no chunk left).
struct VisitEnd {
  int next_chunk = 0;
  bool finished = false;
};

// The trials of chunk k, or none when --trials (or the property's config) has no chunk k.
std::optional<int> trials_of_chunk(const PropertyPlan& plan, int chunk);

// Runs the property's chunks in order from plan.first_chunk: with --trials up to chunk K-1 (the
// last one partial), until the deadline, and on the first visit until the floor is reached;
// shard I/N takes the chunks k with k % N == I. `run_one` runs a chunk; the visit ends after a
// chunk that ends in a failure or an error, and on the first visit after one that gave up (a
// property that discards nearly everything gets its share of the budget, not all of it).
VisitEnd for_each_chunk(const PropertyPlan& plan,
                        const std::function<ChunkRun(const ChunkSpec&, int chunk)>& run_one);

// `seconds` after `from`, saturating (a budget of 1e300 s means no deadline, not an overflow).
Clock::time_point after(Clock::time_point from, double seconds);

// The non-discarded trials a property needs in this run not to be untested: health.min_trials,
// or a shard's part of it (its part of the chunks under --trials, 1/N of it under a time budget),
// so that shards which each reach their part reach min_trials together (`adsem merge` judges the
// sums against min_trials itself).
int untested_floor(int min_trials, const Shard& shard, std::optional<int> trials, int chunk_size);

} // namespace adsem::props
