#pragma once
// The campaign config file (adsem.toml): campaign defaults and per-property settings kept in the
// repository, read with CLI11's TOML reader. Command-line flags win over the file.
//
//   [campaign]                   # defaults for `adsem campaign`
//   time = 120                   # seconds; or trials = 500
//   seed = 7
//   max_size = 40
//   report = "adsem-report"
//   corpus = "adsem-corpus"      # failure corpus folder ("" = none)
//   set = ["tolerance.derivative.rtol=1e-6"]
//   strict_health = true         # health warnings fail the campaign
//
//   [health]                     # health-check thresholds
//   max_discard_fraction = 0.5
//   min_tag_fraction = 0.05
//   max_seconds_per_trial = 0.1
//
//   ["simple-diff/adequacy"]     # one property (its full name)
//   trials = 2000
//   max_size = 30
//   set = ["fuel=5000"]
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/campaign.hpp"

namespace adsem::cli {

struct CampaignConfig {
  std::optional<double> time_seconds;
  std::optional<int> trials;
  std::optional<std::uint64_t> seed;
  std::optional<int> max_size;
  std::optional<std::string> report_dir;
  std::optional<std::string> corpus_dir;
  std::vector<std::string> settings; // KEY=VALUE
  std::optional<bool> strict_health;
  props::HealthPolicy health;
  std::map<std::string, props::PropertyConfig> properties;
};

// Reads and validates a config file. Errors are AdsemError(parse) with file:line, naming the
// section and key. Property names are checked against the registry.
CampaignConfig read_campaign_config(const std::filesystem::path& file,
                                    const props::Registry& registry);

// The name looked for in the working directory when --config is not given.
inline constexpr const char* default_config_name = "adsem.toml";

} // namespace adsem::cli
