#include "properties/core/kill_matrix.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "properties/core/campaign.hpp"
#include "properties/core/reported_rules.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

using Clock = std::chrono::steady_clock;

// The calculi to visit, in registry order.
std::vector<const CalculusEntry*> selected_calculi(const Registry& registry,
                                                   const std::vector<std::string>& ids) {
  std::vector<const CalculusEntry*> calculi;
  if (ids.empty() || (ids.size() == 1 && ids.front() == "all")) {
    for (const CalculusEntry& entry : registry.calculi())
      calculi.push_back(&entry);
    return calculi;
  }
  for (const std::string& id : ids) {
    const CalculusEntry* entry = registry.find(id);
    if (!entry)
      throw AdsemError(ErrorKind::usage,
                       fmt::format("unknown calculus '{}' (see `adsem calculi`)", id));
    if (std::ranges::find(calculi, entry) == calculi.end()) calculi.push_back(entry);
  }
  return calculi;
}

// One campaign under the mutant, over the given properties (empty = all of the calculus).
reports::CampaignResult run_under_mutant(const Registry& registry, const CalculusEntry& entry,
                                         const MutantDef& mutant,
                                         std::vector<std::string> properties, double seconds,
                                         const KillMatrixOptions& options) {
  CampaignOptions campaign;
  campaign.calculi = {entry.id};
  campaign.properties = std::move(properties);
  campaign.mutant = mutant.name;
  campaign.seed = options.seed;
  campaign.trials = options.trials;
  campaign.time_seconds = seconds;
  campaign.isolate = options.isolate;
  campaign.max_resident_bytes = options.max_resident_bytes;
  campaign.trial_timeout_seconds = options.trial_timeout_seconds;
  campaign.jobs = options.jobs;
  campaign.command_name = options.command_name;
  campaign.stop_requested = options.stop_requested;
  campaign.user_rules = options.user_rules;
  return run_campaign(registry, campaign);
}

// The cell of a property that ran: killed when it recorded a failure (outcome "fail"), an error
// for any other record (an exception inside a rule, a crash, a timeout), else survived.
reports::KillCell cell_from(const reports::PropertySummary& summary,
                            const reports::CampaignResult& result, bool expected_killer) {
  reports::KillCell cell;
  cell.property = summary.name;
  cell.expected_killer = expected_killer;
  cell.trials = summary.trials;
  cell.discarded = summary.discarded;
  cell.seconds = summary.seconds;
  cell.outcome = summary.trials == 0 ? "not-run" : "survived";
  for (const auto& record : result.counterexamples) {
    if (record.property != summary.name) continue;
    cell.outcome = record.outcome == "fail" ? "killed" : "error";
    cell.seconds = summary.seconds_to_first_failure.value_or(summary.seconds);
    if (cell.outcome == "killed") cell.counterexample_size = record.term_size;
    cell.message = record.message;
    cell.replay_command = record.replay_command;
  }
  return cell;
}

bool is_expected_killer(const MutantDef& mutant, const std::string& property) {
  return std::ranges::find(mutant.expected_killers, property) != mutant.expected_killers.end();
}

reports::MutantKills kill_row(const Registry& registry, const CalculusEntry& entry,
                              const MutantDef& mutant, const KillMatrixOptions& options) {
  reports::MutantKills row{mutant.name,    mutant.calculus,         mutant.bug_class,
                           mutant.summary, mutant.expected_killers, {}};
  std::vector<reports::KillCell> ran;
  if (options.killers_only) {
    std::optional<double> fastest;
    for (const std::string& killer : mutant.expected_killers) {
      if (options.stop_requested && options.stop_requested->load()) break;
      if (!registry.find_property(killer)) continue; // a stale name: its cell stays not-run
      const double budget =
          std::min(options.seconds_per_mutant, fastest.value_or(options.seconds_per_mutant));
      const auto result = run_under_mutant(registry, entry, mutant, {killer}, budget, options);
      for (const auto& summary : result.properties) {
        reports::KillCell cell = cell_from(summary, result, true);
        if (cell.outcome == "killed" && (!fastest || cell.seconds < *fastest))
          fastest = cell.seconds;
        else if (cell.outcome == "survived" && budget < options.seconds_per_mutant)
          cell.message = fmt::format("stopped after {:.3f} s, the fastest kill so far", budget);
        ran.push_back(std::move(cell));
      }
    }
  } else {
    // Each property gets its fair share of what is left of the budget, but never less than
    // budget / N: the campaign engine checks the clock only between chunks of 25 trials, and
    // under a mutant one chunk can run long (lost sharing makes terms grow exponentially), which
    // would otherwise starve the properties after it of any trial.
    const auto started = Clock::now();
    const double count = static_cast<double>(entry.properties.size());
    for (std::size_t i = 0; i < entry.properties.size(); ++i) {
      if (options.stop_requested && options.stop_requested->load()) break;
      const PropertyDef& def = entry.properties[i];
      const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      const double budget = std::max(options.seconds_per_mutant / count,
                                     (options.seconds_per_mutant - elapsed) / (count - i));
      const auto result = run_under_mutant(registry, entry, mutant, {def.name}, budget, options);
      for (const auto& summary : result.properties)
        ran.push_back(cell_from(summary, result, is_expected_killer(mutant, summary.name)));
    }
  }
  // One cell per property of the calculus, in registry order; those that did not run (killers
  // mode, an interrupted run) are "not-run".
  for (const PropertyDef& def : entry.properties) {
    const auto cell =
        std::ranges::find_if(ran, [&](const auto& c) { return c.property == def.name; });
    if (cell != ran.end()) {
      row.cells.push_back(*cell);
      continue;
    }
    reports::KillCell not_run;
    not_run.property = def.name;
    not_run.outcome = "not-run";
    not_run.expected_killer = is_expected_killer(mutant, def.name);
    row.cells.push_back(std::move(not_run));
  }
  return row;
}

} // namespace

void check_kill_matrix_selection(const Registry& registry, const KillMatrixOptions& options) {
  (void)selected_calculi(registry, options.calculi);
  for (const std::string& name : options.mutants)
    if (!registry.find_mutant(name))
      throw AdsemError(ErrorKind::usage,
                       fmt::format("unknown mutant '{}' (see `adsem calculi`)", name));
}

reports::KillMatrix run_kill_matrix(const Registry& registry, const KillMatrixOptions& options) {
  check_kill_matrix_selection(registry, options);
  const auto started = Clock::now();
  reports::KillMatrix matrix;
  matrix.adsem_version = ADSEM_VERSION_STRING;
  matrix.seed = options.seed;
  matrix.mode = options.killers_only ? "killers" : "matrix";
  matrix.seconds_per_mutant = options.seconds_per_mutant;
  matrix.trials_per_property = options.trials;
  matrix.isolated = options.isolate;
  if (options.user_rules) matrix.rules = reported_rules(*options.user_rules);
  matrix.started_at = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));

  for (const CalculusEntry* entry : selected_calculi(registry, options.calculi)) {
    for (const MutantDef& mutant : entry->mutants) {
      if (!options.mutants.empty() &&
          std::ranges::find(options.mutants, mutant.name) == options.mutants.end())
        continue;
      if (options.stop_requested && options.stop_requested->load()) break;
      matrix.mutants.push_back(kill_row(registry, *entry, mutant, options));
      if (options.on_mutant_done) options.on_mutant_done(matrix.mutants.back());
    }
  }
  matrix.complete = !(options.stop_requested && options.stop_requested->load());
  matrix.elapsed_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return matrix;
}

} // namespace adsem::props
