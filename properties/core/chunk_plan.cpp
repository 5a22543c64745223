#include "properties/core/chunk_plan.hpp"

#include <algorithm>

#include "properties/core/chunk_seed.hpp"

namespace adsem::props {

std::optional<int> trials_of_chunk(const PropertyPlan& plan, int chunk) {
  const int size = plan.options.chunk_size;
  if (!plan.trials) return size;
  const int start = chunk * size;
  if (start >= *plan.trials) return std::nullopt;
  return std::min(size, *plan.trials - start);
}

VisitEnd for_each_chunk(const PropertyPlan& plan,
                        const std::function<ChunkRun(const ChunkSpec&, int chunk)>& run_one) {
  const CampaignOptions& options = plan.options;
  int passed = plan.passed_before;
  int tested = plan.tested_before;
  for (int chunk = plan.first_chunk;; ++chunk) {
    if (plan.stop && plan.stop->load()) return {chunk, false};
    const std::optional<int> chunk_trials = trials_of_chunk(plan, chunk);
    if (!chunk_trials) return {chunk, true};
    if (plan.floor && tested >= *plan.floor) return {chunk, false};
    if (plan.end_chunk && chunk >= *plan.end_chunk) return {chunk, false};
    if (Clock::now() >= plan.deadline) return {chunk, false};
    if (!in_shard(options.shard, chunk)) continue;
    const std::uint64_t seed = chunk_seed(options.seed, plan.def.name, chunk);
    const ChunkSpec spec{plan.def,
                         plan.context,
                         ReplayToken{plan.def.calculus,
                                     plan.def.name,
                                     options.mutant,
                                     plan.context.overrides,
                                     seed,
                                     plan.max_size,
                                     {},
                                     0,
                                     rules_ref(plan.context.user_rules.get())},
                         *chunk_trials,
                         passed,
                         options.command_name};
    const ChunkRun run = run_one(spec, chunk);
    passed += run.delta.passed;
    tested += run.delta.trials - run.delta.discarded;
    if (ends_property(run.end)) return {chunk + 1, true};
    if (run.end == ChunkRun::End::gave_up && plan.floor) return {chunk + 1, false};
  }
}

Clock::time_point after(Clock::time_point from, double seconds) {
  const double room = std::chrono::duration<double>(Clock::time_point::max() - from).count();
  if (seconds >= room) return Clock::time_point::max();
  return from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

int untested_floor(int min_trials, const Shard& shard, std::optional<int> trials, int chunk_size) {
  if (shard.count == 1) return min_trials;
  if (!trials) return (min_trials + shard.count - 1) / shard.count;
  long assigned = 0;
  for (int chunk = shard.index; static_cast<long>(chunk) * chunk_size < *trials;
       chunk += shard.count)
    assigned += std::min<long>(chunk_size, *trials - static_cast<long>(chunk) * chunk_size);
  const long total = *trials;
  return static_cast<int>((min_trials * assigned + total - 1) / total);
}

} // namespace adsem::props
