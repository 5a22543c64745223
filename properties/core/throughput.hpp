#pragma once
// `adsem throughput`: for each property, how many well-typed terms a single core draws and checks
// per second. Each property runs alone in this process (no crash isolation, no report files) with
// a fixed seed, a trial count and a per-property time cap; with jobs > 1, that many properties
// run at once, each in a worker process of its own (per-core figures while jobs <= cores).
//   generated/s = trials / seconds (every trial draws at least one well-typed term; discards
//                 count, since their terms were generated)
//   checked/s   = (passed + failed) / seconds (the trials that reached the property's check)
// The seconds are the campaign engine's (RapidCheck included), i.e. what a campaign achieves.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "properties/core/calculus.hpp"

namespace adsem::props {

struct ThroughputOptions {
  std::vector<std::string> calculi;    // ids or aliases; empty = all
  std::vector<std::string> properties; // full names; empty = all of the calculi
  int trials = 300;
  double seconds_per_property = 2.0;
  std::uint64_t seed = 1;
  const std::atomic<bool>* stop_requested = nullptr;
  int jobs = 1;                       // properties measured at once, in worker processes
  std::size_t max_resident_bytes = 0; // per worker, with jobs > 1; 0 = none
  // A user's rule file joined to the semantics (`throughput CALC --rules FILE`); null = none.
  std::shared_ptr<const UserRules> user_rules = nullptr;
};

struct ThroughputRow {
  std::string calculus, property, kind;
  int trials = 0, checked = 0, discarded = 0;
  double seconds = 0;
  double generated_per_second = 0;
  double checked_per_second = 0;
  std::string status; // the campaign's verdict for the property (passed, failed, ...)
};

std::vector<ThroughputRow>
measure_throughput(const Registry& registry, const ThroughputOptions& options,
                   const std::function<void(const ThroughputRow&)>& on_row = {});

} // namespace adsem::props
