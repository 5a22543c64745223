#include "properties/core/throughput.hpp"

#include <nlohmann/json.hpp>

#include "properties/core/campaign.hpp"
#include "properties/core/worker_map.hpp"
#include "reports/json_lines.hpp"

namespace adsem::props {
namespace {

// One property alone in this process: its campaign's statistics as rates.
std::vector<ThroughputRow> measure_property(const Registry& registry, const PropertyDef& def,
                                            const ThroughputOptions& options) {
  CampaignOptions one;
  one.properties = {def.name};
  one.trials = options.trials;
  one.time_seconds = options.seconds_per_property;
  one.seed = options.seed;
  one.stop_requested = options.stop_requested;
  one.user_rules = options.user_rules;
  const reports::CampaignResult result = run_campaign(registry, one);
  std::vector<ThroughputRow> rows;
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
    rows.push_back(std::move(row));
  }
  return rows;
}

// A worker's rows, as it sends them back.
nlohmann::json to_json(const std::vector<ThroughputRow>& rows) {
  nlohmann::json list = nlohmann::json::array();
  for (const ThroughputRow& r : rows)
    list.push_back({{"calculus", r.calculus},
                    {"property", r.property},
                    {"kind", r.kind},
                    {"trials", r.trials},
                    {"checked", r.checked},
                    {"discarded", r.discarded},
                    {"seconds", r.seconds},
                    {"generated_per_second", r.generated_per_second},
                    {"checked_per_second", r.checked_per_second},
                    {"status", r.status}});
  return list;
}

std::vector<ThroughputRow> rows_from_json(const nlohmann::json& list) {
  std::vector<ThroughputRow> rows;
  for (const auto& j : list)
    rows.push_back(ThroughputRow{j.at("calculus"), j.at("property"), j.at("kind"), j.at("trials"),
                                 j.at("checked"), j.at("discarded"), j.at("seconds"),
                                 j.at("generated_per_second"), j.at("checked_per_second"),
                                 j.at("status")});
  return rows;
}

} // namespace

std::vector<ThroughputRow>
measure_throughput(const Registry& registry, const ThroughputOptions& options,
                   const std::function<void(const ThroughputRow&)>& on_row) {
  CampaignOptions all;
  all.calculi = options.calculi;
  all.properties = options.properties;
  const std::vector<const PropertyDef*> selected = select_properties(registry, all);
  std::vector<ThroughputRow> rows;
  const auto add = [&](std::vector<ThroughputRow> measured) {
    for (ThroughputRow& row : measured) {
      if (on_row) on_row(row);
      rows.push_back(std::move(row));
    }
  };
  if (options.jobs <= 1) {
    for (const PropertyDef* def : selected) {
      if (options.stop_requested && options.stop_requested->load()) break;
      add(measure_property(registry, *def, options));
    }
    return rows;
  }
  map_in_workers(
      selected.size(), options.jobs,
      [&](std::size_t i) {
        return reports::dump_json(to_json(measure_property(registry, *selected[i], options)));
      },
      [&](std::size_t i, std::optional<std::string> line) {
        if (line) {
          add(rows_from_json(nlohmann::json::parse(*line)));
          return;
        }
        const PropertyDef& def = *selected[i];
        ThroughputRow lost;
        lost.calculus = def.calculus;
        lost.property = def.name;
        lost.kind = def.kind;
        lost.status = "worker-died";
        add({lost});
      },
      options.stop_requested, options.max_resident_bytes);
  return rows;
}

} // namespace adsem::props
