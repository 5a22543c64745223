// `adsem cross` is `adsem campaign cross` (same flags), and `campaign all` includes cross.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_registry.hpp"
#include "support/cli_run.hpp"
#include "support/scratch.hpp"

namespace adsem::cli_test {
namespace {

testing::CliRun run_cli(std::vector<std::string> args) {
  static const auto registry = cli::builtin_registry();
  return testing::run_cli(registry, std::move(args));
}

// A config file that lowers health.min_trials: these tests deliberately run a few trials of the
// slow cross properties, which would otherwise be untested (and fail the run).
testing::Scratch few_trials_config(int min_trials) {
  auto path = testing::scratch_path("cross-min-trials-" + std::to_string(min_trials) + ".toml");
  std::ofstream(path.path()) << "[health]\nmin_trials = " << min_trials << "\n";
  return path;
}

TEST(CrossCli, CrossIsTheCampaignOfCross) {
  const auto config_file = few_trials_config(5);
  const std::string config = config_file.string();
  const auto cross = run_cli(
      {"cross", "--trials", "5", "--seed", "9", "--no-corpus", "--config", config, "--json"});
  const auto campaign = run_cli({"campaign", "cross", "--trials", "5", "--seed", "9", "--no-corpus",
                                 "--config", config, "--json"});
  ASSERT_EQ(cross.code, 0) << cross.out << cross.err;
  ASSERT_EQ(campaign.code, 0) << campaign.out << campaign.err;
  const auto a = nlohmann::json::parse(cross.out), b = nlohmann::json::parse(campaign.out);
  ASSERT_EQ(a["properties"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a["properties"][i]["name"], b["properties"][i]["name"]);
    EXPECT_EQ(a["properties"][i]["trials"], b["properties"][i]["trials"]); // same seed, same run
    EXPECT_EQ(a["properties"][i]["passed"], 5);
  }
}

TEST(CrossCli, CrossTakesTheCampaignFlagsButNoCalculus) {
  const auto help = run_cli({"cross", "--help"});
  EXPECT_EQ(help.code, 0);
  for (const char* flag : {"--trials", "--time", "--seed", "--report", "--mutant", "--property"})
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
  EXPECT_EQ(run_cli({"cross", "simple-diff"}).code, 2); // no positional calculus
}

TEST(CrossCli, MutantFailsWithExitOne) {
  const auto run = run_cli({"cross", "-p", "cross/gradient-agreement", "--trials", "100", "--seed",
                            "3", "--mutant", "cross/delta-reverse-sub-reversed", "--no-isolate"});
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("disagree with the model"), std::string::npos) << run.out;
}

TEST(CrossCli, CalculiListsCross) {
  const auto run = run_cli({"calculi", "--json"});
  ASSERT_EQ(run.code, 0);
  const auto json = nlohmann::json::parse(run.out);
  bool found = false;
  for (const auto& c : json["calculi"])
    found = found || c["id"] == "cross";
  EXPECT_TRUE(found);
}

TEST(CrossCli, CampaignAllIncludesCross) {
  const auto config = few_trials_config(3);
  const auto run = run_cli({"campaign", "all", "-p", "cross/gradient-agreement", "-n", "3",
                            "--seed", "1", "--no-corpus", "--config", config.string(), "--json"});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  const auto json = nlohmann::json::parse(run.out);
  ASSERT_EQ(json["properties"].size(), 1u);
  EXPECT_EQ(json["properties"][0]["name"], "cross/gradient-agreement");
}

} // namespace
} // namespace adsem::cli_test
