#include "properties/core/throughput.hpp"

#include "properties/core/campaign.hpp"

namespace adsem::props {

std::vector<ThroughputRow>
measure_throughput(const Registry& registry, const ThroughputOptions& options,
                   const std::function<void(const ThroughputRow&)>& on_row) {
  CampaignOptions all;
  all.calculi = options.calculi;
  all.properties = options.properties;
  std::vector<ThroughputRow> rows;
  for (const PropertyDef* def : select_properties(registry, all)) {
    if (options.stop_requested && options.stop_requested->load()) break;
    CampaignOptions one;
    one.properties = {def->name};
    one.trials = options.trials;
    one.time_seconds = options.seconds_per_property;
    one.seed = options.seed;
    one.stop_requested = options.stop_requested;
    const reports::CampaignResult result = run_campaign(registry, one);
    for (const reports::PropertySummary& s : result.properties) {
      ThroughputRow row;
      row.calculus = s.calculus;
      row.property = s.name;
      row.kind = s.kind;
      row.trials = s.trials;
      row.checked = s.passed + s.failed;
      row.discarded = s.discarded;
      row.seconds = s.seconds;
      row.status = s.status;
      if (s.seconds > 0) {
        row.generated_per_second = s.trials / s.seconds;
        row.checked_per_second = row.checked / s.seconds;
      }
      if (on_row) on_row(row);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

} // namespace adsem::props
