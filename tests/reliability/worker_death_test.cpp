// Every death of an isolated worker becomes a crash or timeout record, including one before the
// worker announced its first chunk: a per-trial timeout shorter than the fork takes used to
// leave the property with no trial, no record and a pass.
#include <gtest/gtest.h>

#include "../campaign/toy_calculus.hpp"
#include "properties/core/campaign.hpp"

namespace adsem::worker_death_test {
namespace {

TEST(WorkerDeath, ATimeoutBeforeTheFirstChunkIsATimeoutRecord) {
  const auto registry = testing::toy_registry();
  auto options = testing::toy_options({"toy/even-discards", "toy/mutant-sensitive"}, 20, 11);
  options.isolate = true;
  // Shorter than any fork: the parent kills the worker before it reads a line from it (until
  // its first line, a worker's time is the wall clock).
  options.trial_timeout_seconds = 1e-9;
  const auto result = props::run_campaign(registry, options);
  ASSERT_EQ(result.properties.size(), 2u);
  for (const auto& p : result.properties) {
    EXPECT_EQ(p.status, "failed") << p.name;
    EXPECT_EQ(p.failed, 1) << p.name;
  }
  ASSERT_EQ(result.counterexamples.size(), 2u);
  for (const auto& r : result.counterexamples) {
    EXPECT_EQ(r.outcome, "timeout") << r.property;
    EXPECT_NE(r.message.find("before it began chunk 0"), std::string::npos) << r.message;
    EXPECT_NE(r.replay_token, "") << r.property;
  }
  EXPECT_FALSE(result.all_passed());
}

} // namespace
} // namespace adsem::worker_death_test
