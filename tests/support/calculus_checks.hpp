#pragma once
// Checks every calculus's test program runs on its registry entry:
//  - the un-mutated calculus passes every property within a modest trial count;
//  - generators are not vacuous: at least half the trials of each property are not discarded,
//    and each construct tag a property reports appears in at least 5% of its trials;
//  - every mutant is killed, from a fixed seed within a bounded number of trials, by a property
//    it names as an expected killer (a semantic property, not a crash: errors do not count).
#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "properties/core/campaign.hpp"
#include "reports/report_text.hpp"

namespace adsem::testing {

inline reports::CampaignResult run_calculus(const props::Registry& registry,
                                            const std::string& calculus, int trials,
                                            std::uint64_t seed, const std::string& mutant = "",
                                            std::vector<std::string> properties = {}) {
  props::CampaignOptions options;
  options.calculi = {calculus};
  options.trials = trials;
  options.seed = seed;
  options.mutant = mutant;
  options.properties = std::move(properties);
  return props::run_campaign(registry, options);
}

// Every property passes, with at most half of its trials discarded and every tag it reports
// present in at least 5% of its trials.
inline void expect_unmutated_calculus_passes(const props::Registry& registry,
                                             const std::string& calculus, int trials,
                                             std::uint64_t seed) {
  const auto result = run_calculus(registry, calculus, trials, seed);
  ASSERT_FALSE(result.properties.empty()) << calculus << " has no properties";
  for (const auto& record : result.counterexamples)
    ADD_FAILURE() << reports::counterexample_text(record);
  for (const auto& p : result.properties) {
    EXPECT_EQ(p.status, "passed") << p.name;
    EXPECT_GE(p.passed, trials) << p.name;
    EXPECT_LE(2 * p.discarded, p.trials) << p.name << ": more than half of the trials discarded ("
                                         << reports::discard_reasons_text(p) << ")";
    for (const auto& [tag, count] : p.tags)
      EXPECT_GE(20 * count, p.trials)
          << p.name << ": construct '" << tag << "' in fewer than 5% of trials";
  }
}

// The mutant is killed within `trials` trials per property by one of its expected killers, as a
// failure (a disagreement), not as an error.
inline void expect_mutant_killed(const props::Registry& registry, const props::MutantDef& mutant,
                                 int trials, std::uint64_t seed) {
  ASSERT_FALSE(mutant.expected_killers.empty()) << mutant.name << " names no expected killer";
  const auto result =
      run_calculus(registry, mutant.calculus, trials, seed, mutant.name, mutant.expected_killers);
  bool killed = false;
  for (const auto& record : result.counterexamples) {
    EXPECT_EQ(record.mutant, mutant.name);
    if (record.outcome == "fail") killed = true;
  }
  EXPECT_TRUE(killed) << mutant.name << " survived " << trials << " trials of each of its "
                      << mutant.expected_killers.size() << " expected killers";
}

inline void expect_every_mutant_killed(const props::Registry& registry, const std::string& calculus,
                                       int trials, std::uint64_t seed) {
  const auto* entry = registry.find(calculus);
  ASSERT_NE(entry, nullptr);
  ASSERT_FALSE(entry->mutants.empty()) << calculus << " ships no mutants";
  for (const auto& mutant : entry->mutants) {
    SCOPED_TRACE(mutant.name);
    // a paper-literal rule that names no killer is an expected survivor (docs/mutants.md)
    if (mutant.bug_class == "paper-literal" && mutant.expected_killers.empty()) continue;
    expect_mutant_killed(registry, mutant, trials, seed);
  }
}

// The calculus's mutant whose name ends in `mutant` is killed by `property` alone (the property
// can fail: a test of a property added beside the mutant's named killers).
inline void expect_killed_by(const props::Registry& registry, const std::string& calculus,
                             const std::string& mutant, const std::string& property, int trials,
                             std::uint64_t seed) {
  const auto* entry = registry.find(calculus);
  ASSERT_NE(entry, nullptr);
  const auto found = std::ranges::find_if(
      entry->mutants, [&](const props::MutantDef& m) { return m.name.ends_with(mutant); });
  ASSERT_NE(found, entry->mutants.end()) << mutant;
  props::MutantDef only_this = *found;
  only_this.expected_killers = {property};
  expect_mutant_killed(registry, only_this, trials, seed);
}

} // namespace adsem::testing
