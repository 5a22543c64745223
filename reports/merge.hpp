#pragma once
// `adsem merge DIR...`: shard reports (from `campaign --shard I/N`) read back and combined into
// one campaign report.
#include <filesystem>
#include <string>
#include <vector>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

// Combines shard results: per property (matched by full name, in order of first appearance)
// counters, histograms, tags, discard reasons and seconds are summed; counterexamples are
// concatenated; complete = every shard complete; shard lists the merged shards ("0/2,1/2");
// elapsed_seconds is the longest shard (shards run side by side); started_at the earliest.
// Inputs that are not disjoint shards of one campaign are refused with AdsemError(usage) naming
// the conflict and the inputs (`names`, e.g. their folders; "shard report K" without): a shard
// given twice or overlapping (0/2 with 1/3, or a merged report with one of its parts), or a
// different seed, mutant, adsem version, trial count, time budget or tolerance. So is nothing to
// merge.
CampaignResult merge(const std::vector<CampaignResult>& shards,
                     const std::vector<std::string>& names = {});

// Adds one property's counters, histograms, tags, discard reasons and seconds into another's
// (what merge does per property; the campaign engine also uses it to add a chunk's statistics).
void merge_property(PropertySummary& into, const PropertySummary& from);

// Reads a report folder: DIR/summary.json, or when that is missing, what DIR/results.jsonl holds
// (complete = false). Also accepts the path of a summary.json or results.jsonl file itself.
// Errors are AdsemError (io: missing/unreadable; parse: malformed) naming the file.
CampaignResult read_report_dir(const std::filesystem::path& dir);

// Reads one summary.json file; errors name the file.
CampaignResult read_summary_json(const std::filesystem::path& file);

} // namespace adsem::reports
