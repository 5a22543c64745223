#include "properties/core/campaign.hpp"

#include <algorithm>

#include "properties/core/campaign_run.hpp"
#include "properties/core/chunk_worker.hpp"
#include "properties/core/parallel_campaign.hpp"
#include "properties/core/rapidcheck_adapter.hpp"

namespace adsem::props {
namespace {

// Runs property i from where it stopped until `visit_deadline` (and, on the first round of a
// budget, until it has `floor` non-discarded trials), in this process or in one worker.
void visit(CampaignRun& campaign, std::size_t i, std::optional<int> floor,
           Clock::time_point visit_deadline) {
  PropertyRun& run = campaign.runs()[i];
  if (run.finished) return;
  campaign.begin(i);
  if (campaign.fail_on_corpus(i)) return;
  if (Clock::now() >= visit_deadline) return; // no chunk would start: spare the fork

  const auto visit_started = Clock::now();
  const double seconds_before = run.summary.seconds;
  const auto seconds_in_property = [&] {
    return seconds_before + std::chrono::duration<double>(Clock::now() - visit_started).count();
  };
  const auto on_chunk = [&](ChunkRun&& chunk) {
    campaign.add_chunk(i, std::move(chunk), seconds_in_property());
  };
  const CampaignOptions& options = campaign.options();
  const PropertyPlan plan = campaign.plan(i, floor, visit_deadline, options.stop_requested);
  VisitEnd end;
  if (options.isolate) {
    end = run_property_isolated(plan, on_chunk);
  } else {
    end = for_each_chunk(plan, [&](const ChunkSpec& spec, int k) {
      ChunkRun chunk = run_chunk(spec);
      chunk.chunk = k;
      ChunkRun seen; // what the loop needs: how the chunk ended and its counts
      seen.end = chunk.end;
      seen.delta.passed = chunk.delta.passed;
      seen.delta.trials = chunk.delta.trials;
      seen.delta.discarded = chunk.delta.discarded;
      on_chunk(std::move(chunk));
      return seen;
    });
  }
  campaign.throw_on_rapidcheck_error(i);
  run.next_chunk = end.next_chunk;
  run.finished = end.finished;
  run.summary.seconds = seconds_in_property();
}

// The budget is shared in two rounds (docs/campaigns.md, "How a time budget is shared"): the
// first gives every property, in order, the trials below which it would be untested; the second
// shares what is left fairly, each property taking its part of the rest. With --trials alone
// there is one round and each property runs all its trials.
void run_in_order(CampaignRun& campaign) {
  auto& runs = campaign.runs();
  const auto budget = campaign.budget();
  const Clock::time_point deadline = campaign.deadline();
  for (std::size_t i = 0; i < runs.size() && !campaign.stop_requested(); ++i) {
    visit(campaign, i, budget ? std::optional<int>(runs[i].floor) : std::nullopt, deadline);
    if (!budget || runs[i].finished) campaign.finish(i);
  }
  for (std::size_t i = 0; i < runs.size() && budget && !campaign.stop_requested(); ++i) {
    if (runs[i].reported) continue;
    // A fair part of what is left of the budget, among the properties not yet done.
    const auto waiting = std::count_if(runs.begin() + static_cast<std::ptrdiff_t>(i), runs.end(),
                                       [](const PropertyRun& r) { return !r.reported; });
    const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    const double share = std::max(0.0, left / static_cast<double>(waiting));
    visit(campaign, i, std::nullopt, std::min(after(Clock::now(), share), deadline));
    campaign.finish(i);
  }
}

} // namespace

reports::CampaignResult run_campaign(const Registry& registry, const CampaignOptions& options) {
  CampaignRun campaign(registry, options);
  const int jobs = options.isolate ? std::max(1, options.jobs) : 1;
  if (jobs == 1)
    run_in_order(campaign);
  else if (campaign.budget())
    run_budget_in_parallel(campaign, jobs);
  else
    run_trials_in_parallel(campaign, jobs);
  return campaign.take_result();
}

} // namespace adsem::props
