#include "properties/core/health.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace adsem::props {
namespace {

constexpr std::string_view prefix = "health: ";

std::string health(std::string text) {
  return std::string(prefix) + std::move(text);
}

} // namespace

std::vector<std::string> property_health(const reports::PropertySummary& summary,
                                         const std::vector<std::string>& expected_tags,
                                         const HealthPolicy& policy) {
  std::vector<std::string> warnings;
  const int n = summary.trials;
  if (n == 0) return warnings; // "no-trials" is the property's status already
  if (summary.discarded > policy.max_discard_fraction * n)
    warnings.push_back(
        health(fmt::format("{} of {} trials discarded (more than {:.0f}%)", summary.discarded, n,
                           100 * policy.max_discard_fraction)));
  if (summary.seconds / n > policy.max_seconds_per_trial)
    warnings.push_back(health(fmt::format("slow trials: {:.3f} s per trial on average (limit {} s)",
                                          summary.seconds / n, policy.max_seconds_per_trial)));
  if (n < policy.min_trials) return warnings;
  for (const std::string& tag : expected_tags)
    if (!summary.tags.contains(tag))
      warnings.push_back(
          health(fmt::format("generator never reached construct '{}' in {} trials", tag, n)));
  for (const auto& [tag, count] : summary.tags)
    if (count < policy.min_tag_fraction * n)
      warnings.push_back(
          health(fmt::format("construct '{}' reached in only {} of {} trials", tag, count, n)));
  return warnings;
}

std::vector<std::string> calculus_health(const std::string& calculus,
                                         const std::vector<std::string>& constructs,
                                         const std::vector<reports::PropertySummary>& summaries,
                                         const HealthPolicy& policy) {
  int trials = 0;
  std::vector<std::string> warnings;
  for (const auto& s : summaries)
    if (reports::calculus_of(s) == calculus) trials += s.trials;
  if (trials < policy.min_trials) return warnings;
  for (const std::string& construct : constructs) {
    const bool reached = std::ranges::any_of(summaries, [&](const reports::PropertySummary& s) {
      return reports::calculus_of(s) == calculus && s.tags.contains(construct);
    });
    if (!reached)
      warnings.push_back(
          health(fmt::format("{}: no property's generator reached construct '{}' in {} trials",
                             calculus, construct, trials)));
  }
  return warnings;
}

bool is_health_warning(const std::string& warning) {
  return warning.starts_with(prefix);
}

} // namespace adsem::props
