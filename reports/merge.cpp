#include "reports/merge.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/json_lines.hpp"
#include "reports/report_writer.hpp"
#include "reports/text_file.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports {
namespace {

template <class Key, class Count>
void add_counts(std::map<Key, Count>& into, const std::map<Key, Count>& from) {
  for (const auto& [key, count] : from)
    into[key] += count;
}

void add_unique(std::vector<std::string>& into, const std::vector<std::string>& from) {
  for (const std::string& item : from)
    if (std::find(into.begin(), into.end(), item) == into.end()) into.push_back(item);
}

} // namespace

void merge_property(PropertySummary& into, const PropertySummary& from) {
  if (into.calculus.empty()) into.calculus = from.calculus;
  if (into.kind.empty()) into.kind = from.kind;
  if (into.citation.empty()) into.citation = from.citation;
  into.trials += from.trials;
  into.passed += from.passed;
  into.failed += from.failed;
  into.discarded += from.discarded;
  into.errors += from.errors;
  add_counts(into.discard_reasons, from.discard_reasons);
  add_counts(into.size_histogram, from.size_histogram);
  add_counts(into.tags, from.tags);
  add_counts(into.rules_fired, from.rules_fired);
  into.seconds += from.seconds;
  if (from.seconds_to_first_failure)
    into.seconds_to_first_failure =
        std::min(from.seconds_to_first_failure.value(),
                 into.seconds_to_first_failure.value_or(*from.seconds_to_first_failure));
  // A shard that gave up or failed makes the merged property so, unless the counts say worse.
  const bool gave_up = into.status == "gave-up" || from.status == "gave-up";
  into.status = derive_status(into);
  if (into.status == "passed" && gave_up) into.status = "gave-up";
  add_unique(into.warnings, from.warnings);
}

namespace {

// Keeps the first shard's value of a metadata field and notes a disagreement.
template <class T>
void check_same(const T& first, const T& other, std::string_view field, std::size_t shard_index,
                std::vector<std::string>& warnings) {
  if (!(first == other))
    warnings.push_back(fmt::format("shard report {} has a different {}; kept the first one's",
                                   shard_index + 1, field));
}

bool same_tolerance(const Tolerance& a, const Tolerance& b) {
  return a.rtol == b.rtol && a.atol == b.atol;
}

} // namespace

CampaignResult merge(const std::vector<CampaignResult>& shards) {
  if (shards.empty()) throw AdsemError(ErrorKind::usage, "merge: no shard reports given");
  CampaignResult merged = shards.front();
  merged.properties.clear();
  merged.counterexamples.clear();
  std::vector<std::string> shard_names;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const CampaignResult& shard = shards[i];
    if (i > 0) {
      check_same(merged.seed, shard.seed, "seed", i, merged.warnings);
      check_same(merged.mutant, shard.mutant, "mutant", i, merged.warnings);
      check_same(merged.adsem_version, shard.adsem_version, "adsem version", i, merged.warnings);
      check_same(merged.trials_per_property, shard.trials_per_property, "trials per property", i,
                 merged.warnings);
      check_same(merged.time_budget_seconds, shard.time_budget_seconds, "time budget", i,
                 merged.warnings);
      check_same(merged.min_trials, shard.min_trials, "health.min_trials", i, merged.warnings);
      merged.complete = merged.complete && shard.complete;
      merged.elapsed_seconds = std::max(merged.elapsed_seconds, shard.elapsed_seconds);
      if (merged.started_at.empty() ||
          (!shard.started_at.empty() && shard.started_at < merged.started_at))
        merged.started_at = shard.started_at;
      for (const auto& [kind, tolerance] : shard.tolerances) {
        const auto [it, added] = merged.tolerances.emplace(kind, tolerance);
        if (!added && !same_tolerance(it->second, tolerance))
          merged.warnings.push_back(fmt::format(
              "shard report {} used another {} tolerance; kept the first one's", i + 1, kind));
      }
      add_unique(merged.warnings, shard.warnings);
    }
    if (!shard.shard.empty()) add_unique(shard_names, {shard.shard});
    for (const PropertySummary& p : shard.properties) {
      const auto same = std::find_if(merged.properties.begin(), merged.properties.end(),
                                     [&](const PropertySummary& q) { return q.name == p.name; });
      if (same == merged.properties.end())
        merged.properties.push_back(p);
      else
        merge_property(*same, p);
    }
    if (i > 0) {
      for (const auto& [calculus, rules] : shard.rule_coverage)
        add_counts(merged.rule_coverage[calculus], rules);
      for (const CorpusOutcome& c : shard.corpus) // every shard replays the corpus
        if (std::find(merged.corpus.begin(), merged.corpus.end(), c) == merged.corpus.end())
          merged.corpus.push_back(c);
    }
    merged.counterexamples.insert(merged.counterexamples.end(), shard.counterexamples.begin(),
                                  shard.counterexamples.end());
  }
  merged.shard = fmt::format("{}", fmt::join(shard_names, ","));
  // Each shard judged its own part of min_trials; the merged counts meet the whole of it.
  for (PropertySummary& p : merged.properties)
    if (is_passing_status(p.status) && p.passed < merged.min_trials) p.status = "untested";
  return merged;
}

CampaignResult read_summary_json(const std::filesystem::path& file) {
  const std::string text = read_text_file(file);
  try {
    return campaign_from_json(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw AdsemError(ErrorKind::parse,
                     fmt::format("{}: not valid JSON: {}", file.string(), e.what()));
  } catch (const AdsemError& e) {
    throw AdsemError(ErrorKind::parse,
                     fmt::format("{}: {}", file.string(), e.diagnostic().message));
  }
}

CampaignResult read_report_dir(const std::filesystem::path& dir) {
  std::error_code ignored;
  if (std::filesystem::is_regular_file(dir, ignored)) {
    if (dir.extension() == ".jsonl") return campaign_from_results(read_results_jsonl(dir));
    return read_summary_json(dir);
  }
  if (!std::filesystem::is_directory(dir, ignored))
    throw AdsemError(ErrorKind::io, fmt::format("no report directory {}", dir.string()));
  const std::filesystem::path summary = dir / summary_json_name;
  if (std::filesystem::exists(summary, ignored)) return read_summary_json(summary);
  const std::filesystem::path results = dir / results_jsonl_name;
  if (std::filesystem::exists(results, ignored))
    return campaign_from_results(read_results_jsonl(results));
  throw AdsemError(ErrorKind::io, fmt::format("{}: neither {} nor {} found", dir.string(),
                                              summary_json_name, results_jsonl_name));
}

} // namespace adsem::reports
