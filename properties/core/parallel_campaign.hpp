#pragma once
// A campaign on --jobs N worker processes at once (docs/campaigns.md, "Using every core").
#include "properties/core/campaign_run.hpp"

namespace adsem::props {

// With --trials: every property's chunks are cut into batches that run on `jobs` workers, lowest
// property and chunk first. A property's verdict comes from its lowest chunk that failed (or
// ended in an error): later chunks are cancelled and not counted, and the chunks are added in
// order, property after property, so the result is the one `jobs` = 1 gives.
void run_trials_in_parallel(CampaignRun& campaign, int jobs);

// Under a time budget (wall clock for the whole run): the two rounds of the one-worker campaign
// with up to `jobs` properties visited at once. The first round gives every property its floor
// of trials; the second gives each property waiting its part of the worker-seconds left.
void run_budget_in_parallel(CampaignRun& campaign, int jobs);

} // namespace adsem::props
