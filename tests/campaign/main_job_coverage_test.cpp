// The main job (`adsem campaign all --time 60`, README) ends without a warning that would come
// back on every run: every rule a calculus's rule book expects to fire fires, and no property
// discards more than the health limit (docs/campaigns.md). Checked for five seeds at the trials
// the main job gives a property of these calculi (50 non-discarded trials, its smallest share), on
// the two calculi whose generators left such warnings: pullback (rows 16b, 16c and 17 and Σ3
// need a free variable in a differentiated body, spec §10 "Coverage feedback") and perturbative
// (primal-is-substitution: T_x M over the blow-up cap cannot be judged).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "support/cli_run.hpp"

namespace adsem::main_job_coverage_test {
namespace {

std::vector<std::string> warning_lines(const std::string& out, const std::string& needle) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < out.size()) {
    const std::size_t end = std::min(out.find('\n', at), out.size());
    const std::string line = out.substr(at, end - at);
    if (line.starts_with("warning: ") && line.find(needle) != std::string::npos)
      lines.push_back(line);
    at = end + 1;
  }
  return lines;
}

testing::CliRun main_job_share(std::vector<std::string> selection, int trials, int seed) {
  std::vector<std::string> args = {"campaign"};
  args.insert(args.end(), selection.begin(), selection.end());
  for (const std::string& a :
       {std::string("--trials"), std::to_string(trials), std::string("--seed"),
        std::to_string(seed), std::string("--no-corpus"), std::string("--no-config"),
        std::string("--no-isolate")})
    args.push_back(a);
  return testing::run_cli(cli::builtin_registry(), args);
}

class MainJobCoverage : public ::testing::TestWithParam<int> {};

TEST_P(MainJobCoverage, EveryFireablePullbackRuleFires) {
  const auto run = main_job_share({"pullback"}, 50, GetParam());
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_EQ(warning_lines(run.out, "never fired"), std::vector<std::string>{}) << run.out;
  EXPECT_EQ(warning_lines(run.out, "discarded (more than"), std::vector<std::string>{}) << run.out;
}

TEST_P(MainJobCoverage, PrimalIsSubstitutionJudgesMostTrials) {
  const auto run =
      main_job_share({"perturbative", "--property", "primal-is-substitution"}, 75, GetParam());
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_EQ(warning_lines(run.out, "discarded (more than"), std::vector<std::string>{}) << run.out;
}

INSTANTIATE_TEST_SUITE_P(FiveSeeds, MainJobCoverage, ::testing::Values(1, 2, 3, 4, 5));

} // namespace
} // namespace adsem::main_job_coverage_test
