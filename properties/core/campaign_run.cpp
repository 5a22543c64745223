#include "properties/core/campaign_run.hpp"

#include <algorithm>
#include <ctime>

#include <fmt/format.h>

#include "properties/core/corpus.hpp"
#include "properties/core/counterexample_trace.hpp"
#include "properties/core/property_selection.hpp"
#include "properties/core/reported_rules.hpp"
#include "reports/merge.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

std::string iso8601_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string untested_warning(const PropertyRun& run, int tested, bool budgeted,
                             const CampaignOptions& options) {
  const std::string why =
      run.gave_up    ? "; RapidCheck gave up: more than 20 discards per pass"
      : run.finished ? "; --trials (or the config file) asks for fewer"
      : budgeted     ? "; the time budget ran out first (docs/campaigns.md says what a campaign "
                       "needs)"
                     : "";
  const std::string shard = options.shard.count == 1 ? "" : " (this shard's part of it)";
  return fmt::format(
      "untested: {} non-discarded trial(s), fewer than the {} that health.min_trials "
      "= {} requires{}{}",
      tested, run.floor, options.health.min_trials, shard, why);
}

} // namespace

CampaignRun::CampaignRun(const Registry& registry, const CampaignOptions& options)
    : registry_(registry), options_(options) {
  const auto selected = select_properties(registry, options);
  started_ = Clock::now();

  reports::CampaignResult& result = result_;
  result.adsem_version = ADSEM_VERSION_STRING;
  result.seed = options.seed;
  result.trials_per_property = options.trials;
  result.min_trials = options.health.min_trials;
  result.time_budget_seconds = options.time_seconds;
  if (!options.trials && !options.time_seconds)
    result.time_budget_seconds = default_campaign_seconds;
  result.shard = fmt::format("{}/{}", options.shard.index, options.shard.count);
  result.mutant = options.mutant;
  result.started_at = iso8601_now();
  if (options.user_rules) result.rules = reported_rules(*options.user_rules);

  const PropertyContext campaign_context{options.mutant, options.overrides, options.user_rules};
  for (const CheckKind kind : all_check_kinds)
    result.tolerances[std::string(to_string(kind))] = campaign_context.tolerance(kind);

  if (options.stream_dir) {
    stream_.emplace(*options.stream_dir);
    stream_->write_campaign_start(result);
  }

  // The corpus first: entries of the selected properties under the same mutant, partitioned
  // over shards like chunks are. A property that still fails on an entry is failed at once.
  if (options.corpus_dir) {
    CorpusContents corpus = load_corpus(*options.corpus_dir, registry);
    if (options.shard.index == 0)
      for (auto& unreadable : corpus.unreadable)
        result.corpus.push_back(std::move(unreadable));
    int k = 0;
    for (const CorpusEntry& entry : corpus.entries) {
      // Entries of another rule file (or of none) are another campaign's (docs/rules.md).
      const bool wanted =
          entry.record.mutant == options.mutant &&
          entry.record.rules_hash == (options.user_rules ? options.user_rules->hash : "") &&
          std::ranges::any_of(
              selected, [&](const PropertyDef* def) { return def->name == entry.record.property; });
      if (!wanted || k++ % options.shard.count != options.shard.index) continue;
      CorpusReplay replayed =
          replay_corpus_entry(registry, entry, options.command_name, options.user_rules);
      if (replayed.record && !corpus_failures_.contains(entry.record.property))
        corpus_failures_.emplace(entry.record.property, std::move(*replayed.record));
      result.corpus.push_back(std::move(replayed.outcome));
    }
  }

  const auto budget = result.time_budget_seconds;
  deadline_ = budget ? after(started_, *budget) : Clock::time_point::max();

  runs_.reserve(selected.size());
  for (const PropertyDef* def : selected) {
    // A config file's per-property settings replace the campaign-wide ones for this property.
    const auto config_it = options.property_config.find(def->name);
    const PropertyConfig config =
        config_it == options.property_config.end() ? PropertyConfig{} : config_it->second;
    PropertyRun run{*def, campaign_context};
    run.trials = config.trials ? config.trials : options.trials;
    run.max_size = config.max_size.value_or(options.max_size.value_or(def->default_max_size));
    run.context.rule_counter = std::make_shared<RuleCounter>();
    for (const auto& [key, value] : config.overrides)
      run.context.overrides[key] = value;
    run.floor =
        untested_floor(options.health.min_trials, options.shard, run.trials, options.chunk_size);
    run.summary.calculus = def->calculus;
    run.summary.name = def->name;
    run.summary.kind = def->kind;
    run.summary.citation = def->citation;
    runs_.push_back(std::move(run));
  }
}

bool CampaignRun::stop_requested() const {
  return options_.stop_requested && options_.stop_requested->load();
}

void CampaignRun::notify(ProgressEvent::Kind kind, std::size_t i) {
  if (options_.on_progress)
    options_.on_progress(ProgressEvent{kind, runs_[i].summary, static_cast<int>(i),
                                       static_cast<int>(runs_.size()),
                                       static_cast<int>(result_.counterexamples.size())});
}

void CampaignRun::begin(std::size_t i) {
  if (runs_[i].visited) return;
  notify(ProgressEvent::Kind::property_started, i);
  runs_[i].visited = true;
}

bool CampaignRun::fail_on_corpus(std::size_t i) {
  PropertyRun& run = runs_[i];
  const auto failure = corpus_failures_.find(run.def.name);
  if (failure == corpus_failures_.end()) return false;
  reports::PropertySummary& summary = run.summary;
  summary.trials = 1;
  summary.failed = 1;
  summary.seconds_to_first_failure = 0.0;
  summary.warnings.push_back("failed on a failure-corpus entry before any random trial");
  if (stream_) stream_->write(failure->second);
  result_.counterexamples.push_back(failure->second);
  run.finished = true;
  return true;
}

void CampaignRun::add_chunk(std::size_t i, ChunkRun&& chunk, double seconds_in_property) {
  PropertyRun& run = runs_[i];
  reports::PropertySummary& summary = run.summary;
  const std::string status = summary.status;
  reports::merge_property(summary, chunk.delta);
  summary.status = status;               // decided in `finish`, when the property is done
  summary.seconds = seconds_in_property; // so progress shows the rate while running
  notify(ProgressEvent::Kind::chunk_finished, i);
  if (chunk.end == ChunkRun::End::failure && chunk.record) {
    auto record = std::move(*chunk.record);
    summary.seconds_to_first_failure = seconds_in_property;
    fill_counterexample_trace(registry_, record, options_.user_rules);
    if (stream_) stream_->write(record);
    // Crash/timeout records stay out of the failure corpus: the corpus is replayed in-process
    // at the start of every campaign, where a crash would end it.
    if (options_.corpus_dir && record.outcome != "crash" && record.outcome != "timeout") {
      try {
        save_to_corpus(*options_.corpus_dir, record);
      } catch (const AdsemError& e) {
        result_.warnings.push_back("corpus: " + e.diagnostic().message);
      }
    }
    result_.counterexamples.push_back(std::move(record));
  }
  if (chunk.warning) summary.warnings.push_back(std::move(*chunk.warning));
  if (chunk.end == ChunkRun::End::gave_up) run.gave_up = true;
  if (chunk.end == ChunkRun::End::error) run.rapidcheck_error = chunk.error;
}

void CampaignRun::throw_on_rapidcheck_error(std::size_t i) const {
  const PropertyRun& run = runs_[i];
  if (run.rapidcheck_error)
    throw AdsemError(ErrorKind::eval,
                     fmt::format("{}: RapidCheck error: {}", run.def.name, *run.rapidcheck_error));
}

PropertyPlan CampaignRun::plan(std::size_t i, std::optional<int> floor,
                               Clock::time_point visit_deadline,
                               const std::atomic<bool>* stop) const {
  const PropertyRun& run = runs_[i];
  const reports::PropertySummary& summary = run.summary;
  return PropertyPlan{run.def,      run.context,    options_,
                      run.trials,   run.max_size,   run.next_chunk,
                      std::nullopt, summary.passed, summary.trials - summary.discarded,
                      floor,        visit_deadline, stop};
}

void CampaignRun::finish(std::size_t i) {
  PropertyRun& run = runs_[i];
  reports::PropertySummary& summary = run.summary;
  const int tested = summary.trials - summary.discarded;
  if (summary.failed + summary.errors > 0) {
    summary.status = "failed";
  } else if (!run.finished && stop_requested()) {
    // Its budget was not used up: no verdict.
    summary.status = run.visited ? "interrupted" : "not-run";
  } else if (tested < run.floor) {
    summary.status = "untested";
    summary.warnings.push_back(untested_warning(run, tested, budget().has_value(), options_));
  } else if (summary.trials == 0) {
    summary.status = "not-in-shard"; // --trials gave this shard none of its chunks
  } else {
    summary.status = run.gave_up ? "gave-up" : "passed";
  }
  if (run.gave_up)
    summary.warnings.push_back(
        "health: RapidCheck gave up on a chunk: more than 20 discards per pass");
  for (std::string& warning : property_health(summary, run.def.expected_tags, options_.health))
    summary.warnings.push_back(std::move(warning));
  run.reported = true;
  if (run.visited) notify(ProgressEvent::Kind::property_finished, i);
  if (stream_) stream_->write(summary);
}

reports::CampaignResult CampaignRun::take_result() {
  for (std::size_t i = 0; i < runs_.size(); ++i) // interrupted: the rest have no verdict
    if (!runs_[i].reported) finish(i);
  reports::CampaignResult result = std::move(result_);
  for (PropertyRun& run : runs_)
    result.properties.push_back(std::move(run.summary));

  for (const CalculusEntry& entry : registry_.calculi()) {
    const bool ran = std::ranges::any_of(result.properties, [&](const reports::PropertySummary& s) {
      return s.calculus == entry.id;
    });
    if (!ran) continue;
    for (std::string& warning :
         calculus_health(entry.id, entry.constructs, result.properties, options_.health))
      result.warnings.push_back(std::move(warning));
    if (entry.rules.empty()) continue;
    auto& coverage = result.rule_coverage[entry.id];
    for (const std::string& rule : entry.rules)
      coverage[rule] = 0;
    if (result.rules && result.rules->calculus == entry.id) // the user's rules, beside them
      for (const std::string& rule : result.rules->names)
        coverage[rule] += 0;
    for (const auto& s : result.properties)
      if (s.calculus == entry.id)
        for (const auto& [rule, times] : s.rules_fired)
          coverage[rule] += times;
  }

  result.complete = !stop_requested();
  result.elapsed_seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  return result;
}

} // namespace adsem::props
