#include "properties/core/kill_matrix.hpp"

#include <algorithm>

namespace adsem::props {

std::vector<MutantKills> run_kill_matrix(const Registry& registry,
                                         const KillMatrixOptions& options) {
  CampaignOptions selection;
  selection.calculi = options.calculi;
  std::vector<const CalculusEntry*> calculi;
  for (const PropertyDef* def : select_properties(registry, selection)) {
    const CalculusEntry* entry = registry.find(def->calculus);
    if (std::find(calculi.begin(), calculi.end(), entry) == calculi.end()) calculi.push_back(entry);
  }
  for (const auto& id : options.calculi) // calculi with mutants but no properties still count
    if (const CalculusEntry* entry = registry.find(id);
        entry && std::find(calculi.begin(), calculi.end(), entry) == calculi.end())
      calculi.push_back(entry);

  std::vector<MutantKills> matrix;
  for (const CalculusEntry* entry : calculi) {
    for (const MutantDef& mutant : entry->mutants) {
      if (options.stop_requested && options.stop_requested->load()) return matrix;
      CampaignOptions campaign;
      campaign.calculi = {entry->id};
      campaign.mutant = mutant.name;
      campaign.seed = options.seed;
      campaign.trials = options.trials;
      campaign.time_seconds = options.seconds_per_mutant;
      campaign.stop_requested = options.stop_requested;
      const reports::CampaignResult result = run_campaign(registry, campaign);

      MutantKills kills{mutant.name, entry->id, mutant.bug_class, {}, {}, {}, {}};
      for (const auto& summary : result.properties) {
        KillCell cell{summary.name, "survived", summary.trials, summary.seconds, 0};
        for (const auto& record : result.counterexamples) {
          if (record.property != summary.name) continue;
          cell.outcome = record.outcome == "fail" ? "killed" : "crashed";
          cell.seconds = summary.seconds_to_first_failure.value_or(summary.seconds);
          cell.counterexample_size = record.term_size;
        }
        if (cell.outcome == "killed") {
          kills.killed_by.push_back(summary.name);
          if (!kills.seconds_to_kill || cell.seconds < *kills.seconds_to_kill) {
            kills.seconds_to_kill = cell.seconds;
            kills.trials_to_kill = cell.trials;
          }
        }
        kills.cells.push_back(cell);
      }
      if (options.on_mutant_done) options.on_mutant_done(kills);
      matrix.push_back(std::move(kills));
    }
  }
  return matrix;
}

} // namespace adsem::props
