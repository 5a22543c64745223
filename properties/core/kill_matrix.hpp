#pragma once
// The mutant kill matrix (`adsem mutants`): each built-in mutant is run against the
// properties of its calculus until each property's first counterexample or the end of its budget.
// A mutant is killed when some property fails on it (a disagreement: an error, i.e. a crash or
// timeout inside a rule, is recorded but does not count as a kill). The result and its JSON,
// Markdown, HTML and text forms are in reports/kill_matrix.hpp.
//
// Two modes:
//  - matrix (default): every property of the calculus runs under the mutant, the per-mutant
//    budget split fairly over them (a property that kills early leaves its unused time to the
//    next ones; none gets less than budget / N), so the matrix shows which properties kill what;
//  - killers: only the mutant's declared killers (MutantDef::expected_killers), one after the
//    other, each with the whole budget cut to the fastest kill so far. The fastest kill is then
//    found at the cost of about one budget per mutant; bench/kill_time.cpp uses it.
// Either way a mutant's time to kill is the seconds its fastest killing property needed, run
// alone, to its shrunk counterexample.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/calculus.hpp"
#include "reports/kill_matrix.hpp"

namespace adsem::props {

struct KillMatrixOptions {
  std::vector<std::string> calculi; // ids or aliases; empty or "all" = all
  std::vector<std::string> mutants; // full mutant names; empty = every mutant of the calculi
  double seconds_per_mutant = 10;   // budget per mutant (split over properties in matrix mode)
  std::optional<int> trials;        // cases per property, instead of / besides the time budget
  std::uint64_t seed = 1;
  bool killers_only = false; // the "killers" mode above
  bool isolate = false;      // crash isolation of chunks (CampaignOptions::isolate)
  double trial_timeout_seconds = 10.0;
  std::size_t max_resident_bytes = 0; // CampaignOptions::max_resident_bytes
  int jobs = 1;                       // CampaignOptions::jobs
  std::string command_name = "adsem"; // CampaignOptions::command_name
  // A user's rule file joined to every mutant's campaign (`mutants CALC --rules FILE`); null =
  // none. Its calculus is then the only one selected.
  std::shared_ptr<const UserRules> user_rules = nullptr;
  const std::atomic<bool>* stop_requested = nullptr;
  std::function<void(const reports::MutantKills&)> on_mutant_done;
};

// Throws AdsemError(usage) for an unknown calculus or mutant (what run_kill_matrix checks first;
// `mutants --report` checks it before it clears the folder).
void check_kill_matrix_selection(const Registry& registry, const KillMatrixOptions& options);

// Throws AdsemError(usage) for an unknown calculus or mutant.
reports::KillMatrix run_kill_matrix(const Registry& registry, const KillMatrixOptions& options);

} // namespace adsem::props
