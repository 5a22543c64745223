// --jobs: with --trials, a campaign on several worker processes gives the summary.json of one
// worker (timings aside): every property's verdict comes from its lowest failing chunk, later
// chunks are cancelled and not counted, and the chunks are added in order.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "crash_calculus.hpp"
#include "properties/core/campaign.hpp"
#include "reports/report_writer.hpp"
#include "support/scratch.hpp"
#include "support/without_timing.hpp"

namespace adsem::jobs_identity_test {
namespace {

// Fails (or crashes) on about one input in 150 of 0..999: its first failure is in a later chunk.
props::PropertyDef rare_property(std::string suffix, void (*bad)()) {
  return props::PropertyDef{"rare",
                            "rare/" + suffix,
                            "toy",
                            "fails on one input in 150",
                            "",
                            [bad](const props::PropertyContext& context) {
                              const int n = *rc::gen::inRange(0, 1000);
                              const std::string term = std::to_string(n);
                              context.report_input(term, term);
                              if (n % 151 != 150)
                                return props::TrialResult::pass().on(term, "int", n);
                              if (bad) bad();
                              return props::TrialResult::fail("n = " + term).on(term, "int", n);
                            },
                            1000};
}

props::Registry jobs_registry() {
  props::Registry registry = testing::crash_registry();
  props::CalculusEntry rare;
  rare.id = "rare";
  rare.paper = "none (--jobs self-test)";
  rare.properties = {rare_property("late-fail", nullptr),
                     rare_property("late-crash", testing::segfault)};
  registry.add(std::move(rare));
  return registry;
}

nlohmann::json summary_with_jobs(const props::Registry& registry, int jobs,
                                 const std::filesystem::path& dir) {
  props::CampaignOptions options;
  options.calculi = {"toy", "crashy", "rare"};
  options.properties = {"toy/below-ten",  "toy/even-discards", "toy/mutant-sensitive",
                        "toy/throws",     "crashy/segfault",   "crashy/fine",
                        "rare/late-fail", "rare/late-crash"};
  options.mutant = "toy/off-by-one";
  options.trials = 600;
  options.seed = 5;
  options.isolate = true;
  options.jobs = jobs;
  const auto result = props::run_campaign(registry, options);
  reports::write_report(result, dir.string(), reports::parse_report_formats("json"));
  std::ifstream in(dir / "summary.json");
  return nlohmann::json::parse(in);
}

TEST(Jobs, WithTrialsFourWorkersGiveTheSummaryOfOne) {
  const auto registry = jobs_registry();
  const auto dir = testing::scratch_path("jobs-identity");
  const auto one = summary_with_jobs(registry, 1, dir / "one");
  const auto four = summary_with_jobs(registry, 4, dir / "four");
  std::filesystem::remove_all(dir);

  // The campaign has what the comparison needs: several failures, one of them late, an error,
  // crashes (one late) and passes.
  std::map<std::string, int> outcomes;
  bool late = false;
  for (const auto& record : one.at("counterexamples")) {
    ++outcomes[record.at("outcome").get<std::string>()];
    late = late || record.at("trials_before").get<int>() > 25;
  }
  EXPECT_GE(outcomes["fail"], 3);
  EXPECT_GE(outcomes["error"], 1);
  EXPECT_GE(outcomes["crash"], 2);
  EXPECT_TRUE(late) << "no failure after the first chunk";
  EXPECT_EQ(testing::without_timing(one).dump(2), testing::without_timing(four).dump(2));
}

} // namespace
} // namespace adsem::jobs_identity_test
