#pragma once
// Health checks in the manner of Hypothesis: a property can pass and still test little. These
// checks read a finished property's statistics and say what is wrong with the testing itself:
// too many discards, constructs its generator never (or rarely) reaches, trials too slow to run
// many of. They are warnings in the summary and every report; `--strict-health` makes them fail
// the campaign (exit code 1).
#include <string>
#include <vector>

#include "reports/campaign_result.hpp"

namespace adsem::props {

struct HealthPolicy {
  double max_discard_fraction = 0.5;  // more than this share of trials discarded
  double min_tag_fraction = 0.05;     // a construct seen in fewer trials than this share
  double max_seconds_per_trial = 0.1; // mean wall-clock time per trial
  int min_trials = 20;                // below this many trials, fractions say nothing
};

// Warnings about one property, each one line starting with "health: ". `expected_tags` are the
// constructs the property's generator is meant to reach (empty: only the tags it reported).
std::vector<std::string> property_health(const reports::PropertySummary& summary,
                                         const std::vector<std::string>& expected_tags,
                                         const HealthPolicy& policy);

// Constructs a calculus declares that no property of it reached in the whole campaign.
std::vector<std::string> calculus_health(const std::string& calculus,
                                         const std::vector<std::string>& constructs,
                                         const std::vector<reports::PropertySummary>& summaries,
                                         const HealthPolicy& policy);

// True when a warning came from these checks (and so counts under --strict-health).
bool is_health_warning(const std::string& warning);

} // namespace adsem::props
