#pragma once
// The mutant kill matrix (`adsem mutants`): each built-in mutant is run against every property of
// its calculus until the property's first counterexample or the end of its budget. A mutant is
// killed when some property fails on it (a disagreement: an error, i.e. a crash inside a rule,
// is recorded but does not count as a kill).
#include <optional>
#include <string>
#include <vector>

#include "properties/core/campaign.hpp"

namespace adsem::props {

struct KillCell {
  std::string property;
  std::string outcome;         // "killed", "crashed", "survived"
  int trials = 0;              // trials run (to the first kill, or in all)
  double seconds = 0;          // to the first kill, or in all
  int counterexample_size = 0; // shrunk term size, when killed
};

struct MutantKills {
  std::string name;
  std::string calculus;
  std::string bug_class;
  std::vector<KillCell> cells;           // one per property of the calculus
  std::vector<std::string> killed_by;    // properties that killed it
  std::optional<double> seconds_to_kill; // fastest kill
  std::optional<int> trials_to_kill;     // trials of that property to its kill
  bool killed() const { return !killed_by.empty(); }
};

struct KillMatrixOptions {
  std::vector<std::string> calculi; // empty or "all" = all
  double seconds_per_mutant = 10;   // budget per mutant, split over its calculus's properties
  std::optional<int> trials;        // per property, instead of / besides the time budget
  std::uint64_t seed = 1;
  const std::atomic<bool>* stop_requested = nullptr;
  std::function<void(const MutantKills&)> on_mutant_done;
};

std::vector<MutantKills> run_kill_matrix(const Registry& registry,
                                         const KillMatrixOptions& options);

} // namespace adsem::props
