// A property that ran too few trials has no verdict: it is "untested" and fails the campaign.
// Also how a time budget is shared: every property first gets the trials health.min_trials asks
// for, then the rest is split fairly.
#include <chrono>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "cli/app.hpp"
#include "properties/core/campaign.hpp"
#include "toy_calculus.hpp"

namespace adsem::untested_test {
namespace {

using namespace std::chrono_literals;

props::PropertyDef passing(std::string name, std::chrono::milliseconds per_trial) {
  return props::PropertyDef{"budget",
                            "budget/" + name,
                            "toy",
                            "always passes",
                            "",
                            [per_trial](const props::PropertyContext&) {
                              const int n = *rc::gen::inRange(0, 100);
                              if (per_trial.count() > 0) std::this_thread::sleep_for(per_trial);
                              return props::TrialResult::pass().on(std::to_string(n), "int", n);
                            },
                            100};
}

// Four fast properties, then three whose chunk of 25 trials takes 1 s, and one that discards
// almost every trial.
props::Registry budget_registry() {
  props::CalculusEntry budget;
  budget.id = "budget";
  budget.paper = "none (engine self-test)";
  for (const char* name : {"fast-1", "fast-2", "fast-3", "fast-4"})
    budget.properties.push_back(passing(name, 0ms));
  for (const char* name : {"slow-1", "slow-2", "slow-3"})
    budget.properties.push_back(passing(name, 40ms));
  budget.properties.push_back(props::PropertyDef{
      "budget", "budget/discards", "toy", "discards all but one n in a thousand", "",
      [](const props::PropertyContext&) {
        const int n = *rc::gen::inRange(0, 1000);
        return n == 0 ? props::TrialResult::pass().on("0", "int", 0)
                      : props::TrialResult::discard("not zero");
      },
      1000});
  props::Registry registry;
  registry.add(std::move(budget));
  return registry;
}

const reports::PropertySummary& summary_of(const reports::CampaignResult& result,
                                           const std::string& name) {
  for (const auto& p : result.properties)
    if (p.name == name) return p;
  throw std::runtime_error("no summary for " + name);
}

int tested(const reports::PropertySummary& p) {
  return p.trials - p.discarded;
}

TEST(Untested, FewerTrialsThanMinTrialsIsUntestedAndNoPass) {
  const auto registry = testing::toy_registry();
  const auto result =
      props::run_campaign(registry, testing::toy_options({"toy/mutant-sensitive"}, 5));
  const auto& p = summary_of(result, "toy/mutant-sensitive");
  EXPECT_EQ(p.passed, 5);
  EXPECT_EQ(p.status, "untested");
  ASSERT_FALSE(p.warnings.empty());
  EXPECT_NE(p.warnings.front().find("untested: 5 non-discarded trial(s), fewer than the 20"),
            std::string::npos)
      << p.warnings.front();
  EXPECT_FALSE(result.all_passed());
}

TEST(Untested, AnExplicitMinTrialsOverrideMakesFewTrialsEnough) {
  const auto registry = testing::toy_registry();
  auto options = testing::toy_options({"toy/mutant-sensitive"}, 5);
  options.health.min_trials = 5; // a test that deliberately runs few trials says so
  const auto result = props::run_campaign(registry, options);
  EXPECT_EQ(summary_of(result, "toy/mutant-sensitive").status, "passed");
  EXPECT_TRUE(result.all_passed());
}

TEST(Untested, APropertyThatDiscardsNearlyEverythingIsUntested) {
  const auto registry = budget_registry();
  props::CampaignOptions options;
  options.calculi = {"budget"};
  options.properties = {"budget/discards"};
  options.trials = 25;
  options.seed = 3;
  const auto result = props::run_campaign(registry, options);
  const auto& p = summary_of(result, "budget/discards");
  EXPECT_LT(tested(p), 20);
  EXPECT_EQ(p.status, "untested");
  EXPECT_FALSE(result.all_passed());
}

TEST(Untested, EveryPropertyFirstGetsItsMinTrialsThenTheRestIsShared) {
  // A fair share of what is left, property by property, gives the four fast properties 2.6/6 s
  // each (1.73 s); slow-1 then overruns its share with a 1 s chunk and slow-2 starts after the
  // deadline with nothing. Shared in two rounds, the two slow chunks (2 s) fit.
  const auto registry = budget_registry();
  props::CampaignOptions options;
  options.calculi = {"budget"};
  options.properties = {"fast-1", "fast-2", "fast-3", "fast-4", "slow-1", "slow-2"};
  options.time_seconds = 2.6;
  options.seed = 5;
  const auto result = props::run_campaign(registry, options);
  ASSERT_EQ(result.properties.size(), 6u);
  for (const auto& p : result.properties) {
    EXPECT_GE(tested(p), 20) << p.name;
    EXPECT_EQ(p.status, "passed") << p.name;
  }
  EXPECT_TRUE(result.all_passed());
}

TEST(Untested, TheRestOfTheBudgetIsSharedAfterTheFloor) {
  const auto registry = budget_registry();
  props::CampaignOptions options;
  options.calculi = {"budget"};
  options.properties = {"fast-1", "fast-2"};
  options.time_seconds = 0.5;
  options.seed = 5;
  const auto started = std::chrono::steady_clock::now();
  const auto result = props::run_campaign(registry, options);
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 0.5);
  // Both went on past their floor (one chunk) in the second round.
  EXPECT_GT(summary_of(result, "budget/fast-1").trials, 25);
  EXPECT_GT(summary_of(result, "budget/fast-2").trials, 25);
}

TEST(Untested, ABudgetTooSmallForEveryPropertyLeavesTheRestUntested) {
  const auto registry = budget_registry();
  props::CampaignOptions options;
  options.calculi = {"budget"};
  options.properties = {"slow-1", "slow-2", "slow-3"};
  options.time_seconds = 0.3; // less than one slow chunk
  options.seed = 5;
  const auto result = props::run_campaign(registry, options);
  const auto& last = summary_of(result, "budget/slow-3");
  EXPECT_EQ(last.trials, 0);
  EXPECT_EQ(last.status, "untested");
  ASSERT_FALSE(last.warnings.empty());
  EXPECT_NE(last.warnings.front().find("the time budget ran out first"), std::string::npos)
      << last.warnings.front();
  EXPECT_FALSE(result.all_passed());
}

struct Run {
  int code;
  std::string out;
  std::string err;
};

Run run_cli(const props::Registry& registry, std::vector<std::string> args) {
  args.insert(args.begin(), "adsem");
  args.push_back("--no-corpus");
  args.push_back("--no-config");
  std::ostringstream out, err;
  const int code = cli::run(args, registry, cli::Io{out, err});
  return {code, out.str(), err.str()};
}

TEST(Untested, AnUntestedPropertyFailsTheCampaignWithoutStrictHealth) {
  const auto registry = testing::toy_registry();
  const auto run = run_cli(
      registry, {"campaign", "toy", "-p", "mutant-sensitive", "-n", "5", "--no-isolate", "--json"});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("\"untested\""), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\"all_passed\": false"), std::string::npos) << run.out;
}

} // namespace
} // namespace adsem::untested_test
