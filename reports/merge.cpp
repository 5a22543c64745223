#include "reports/merge.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

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

[[noreturn]] void conflict(const std::string& message) {
  throw AdsemError(ErrorKind::usage, "merge: " + message);
}

std::string label_of(const std::vector<std::string>& names, std::size_t i) {
  return i < names.size() ? names[i] : fmt::format("shard report {}", i + 1);
}

// Metadata every shard of one campaign shares; a difference means the inputs are not shards of
// one campaign, and any choice of value would misreport the others.
template <class T>
void require_same(const T& first, const T& other, std::string_view field,
                  const std::vector<std::string>& names, std::size_t i) {
  if (!(first == other))
    conflict(fmt::format("{} and {} have a different {}: they are not shards of one campaign",
                         label_of(names, 0), label_of(names, i), field));
}

std::string optional_text(const std::optional<int>& value) {
  return value ? std::to_string(*value) : "none";
}

// "0/2,1/2" (a merged report lists its shards) -> {0, 1} of 2. An empty field (a report written
// by hand) counts as the whole campaign, 0/1.
std::pair<std::vector<int>, int> parse_shards(const std::string& field, const std::string& label) {
  std::vector<int> indices;
  int count = 0;
  std::string_view rest = field.empty() ? std::string_view("0/1") : std::string_view(field);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string item(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
    int index = -1, n = 0;
    char slash = 0;
    std::istringstream in(item);
    if (!(in >> index >> slash >> n) || slash != '/' || !in.eof() || index < 0 || index >= n ||
        (count != 0 && n != count))
      conflict(fmt::format("{}: shard '{}' is not I/N with 0 <= I < N", label, field));
    count = n;
    indices.push_back(index);
  }
  return {indices, count};
}

// Every shard index at most once, all of one count: the same shard given twice would count its
// trials twice, and 0/2 with 1/3 cover overlapping chunks.
void check_shards(const std::vector<CampaignResult>& shards,
                  const std::vector<std::string>& names) {
  std::map<int, std::size_t> owner; // shard index -> input
  int count = 0;
  std::size_t count_from = 0;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const auto [indices, n] = parse_shards(shards[i].shard, label_of(names, i));
    if (count == 0) {
      count = n;
      count_from = i;
    } else if (n != count) {
      conflict(fmt::format("{} is a shard of {} and {} a shard of {}: shards of one campaign "
                           "share N",
                           label_of(names, count_from), count, label_of(names, i), n));
    }
    for (const int index : indices) {
      const auto [it, added] = owner.emplace(index, i);
      if (!added)
        conflict(fmt::format("shard {}/{} is given twice ({} and {}): its trials would be "
                             "counted twice",
                             index, count, label_of(names, it->second), label_of(names, i)));
    }
  }
}

void check_same_campaign(const std::vector<CampaignResult>& shards,
                         const std::vector<std::string>& names) {
  const CampaignResult& first = shards.front();
  for (std::size_t i = 1; i < shards.size(); ++i) {
    const CampaignResult& shard = shards[i];
    require_same(first.seed, shard.seed, fmt::format("seed ({} vs {})", first.seed, shard.seed),
                 names, i);
    require_same(first.mutant, shard.mutant,
                 fmt::format("mutant ('{}' vs '{}')", first.mutant, shard.mutant), names, i);
    const auto rules_text = [](const std::optional<CampaignRules>& rules) {
      return rules ? fmt::format("{} ({})", rules->file, rules->hash) : std::string("none");
    };
    require_same(
        first.rules, shard.rules,
        fmt::format("rule file ({} vs {})", rules_text(first.rules), rules_text(shard.rules)),
        names, i);
    require_same(first.adsem_version, shard.adsem_version,
                 fmt::format("adsem version ({} vs {})", first.adsem_version, shard.adsem_version),
                 names, i);
    require_same(first.trials_per_property, shard.trials_per_property,
                 fmt::format("trial count ({} vs {})", optional_text(first.trials_per_property),
                             optional_text(shard.trials_per_property)),
                 names, i);
    require_same(first.time_budget_seconds, shard.time_budget_seconds, "time budget", names, i);
    require_same(first.min_trials, shard.min_trials, "health.min_trials", names, i);
    for (const auto& [kind, tolerance] : shard.tolerances)
      if (const auto it = first.tolerances.find(kind); it != first.tolerances.end())
        require_same(std::pair(it->second.rtol, it->second.atol),
                     std::pair(tolerance.rtol, tolerance.atol),
                     fmt::format("{} tolerance (rtol {} atol {} vs rtol {} atol {})", kind,
                                 it->second.rtol, it->second.atol, tolerance.rtol, tolerance.atol),
                     names, i);
  }
}

} // namespace

CampaignResult merge(const std::vector<CampaignResult>& shards,
                     const std::vector<std::string>& names) {
  if (shards.empty()) throw AdsemError(ErrorKind::usage, "merge: no shard reports given");
  check_same_campaign(shards, names);
  check_shards(shards, names);
  CampaignResult merged = shards.front();
  merged.properties.clear();
  merged.counterexamples.clear();
  std::vector<std::string> shard_names;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const CampaignResult& shard = shards[i];
    if (i > 0) {
      merged.complete = merged.complete && shard.complete;
      merged.elapsed_seconds = std::max(merged.elapsed_seconds, shard.elapsed_seconds);
      if (merged.started_at.empty() ||
          (!shard.started_at.empty() && shard.started_at < merged.started_at))
        merged.started_at = shard.started_at;
      merged.tolerances.insert(shard.tolerances.begin(), shard.tolerances.end());
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
