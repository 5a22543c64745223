// --jobs takes a whole number of worker processes >= 1; anything else is a usage error (exit 2)
// that quotes the value as typed, in every command that has the option.
#include <sstream>

#include <gtest/gtest.h>

#include "cli/app.hpp"
#include "toy_calculus.hpp"

namespace adsem::jobs_option_test {
namespace {

int run(const std::vector<std::string>& args, std::string& err_text) {
  const auto registry = testing::toy_registry();
  std::ostringstream out, err;
  const int code = cli::run(args, registry, cli::Io{out, err});
  err_text = err.str();
  return code;
}

TEST(JobsOption, MustBeAWholeNumberAboveZero) {
  const std::vector<std::vector<std::string>> commands = {
      {"adsem", "campaign", "toy", "--trials", "5", "--no-corpus", "--no-config"},
      {"adsem", "mutants", "toy", "--time", "1"},
      {"adsem", "check-rule", "toy", "no-such-file.rules"},
      {"adsem", "throughput", "toy", "--trials", "5"},
      {"adsem", "complexity", "toy"},
  };
  for (const auto& command : commands)
    for (const std::string bad : {"0", "-1", "-4", "four", "1.5", "2x"}) {
      auto args = command;
      args.insert(args.end(), {"--jobs", bad});
      std::string err;
      EXPECT_EQ(run(args, err), 2) << command[1] << " --jobs '" << bad << "': " << err;
      EXPECT_NE(
          err.find("--jobs expects a whole number of worker processes >= 1 (got '" + bad + "')"),
          std::string::npos)
          << command[1] << ": " << err;
    }
}

TEST(JobsOption, MoreThanOneNeedsWorkerProcesses) {
  std::string err;
  EXPECT_EQ(run({"adsem", "campaign", "toy", "--trials", "5", "--no-corpus", "--no-config",
                 "--no-isolate", "--jobs", "2"},
                err),
            2);
  EXPECT_NE(err.find("--jobs 2 needs worker processes"), std::string::npos) << err;
  EXPECT_EQ(run({"adsem", "campaign", "toy", "--trials", "5", "--no-corpus", "--no-config",
                 "--no-isolate", "--jobs", "1"},
                err),
            1) // toy/below-ten fails
      << err;
}

TEST(JobsOption, ACampaignOnTwoWorkersRuns) {
  std::string err;
  EXPECT_EQ(run({"adsem", "campaign", "toy", "-p", "toy/even-discards", "--trials", "200",
                 "--no-corpus", "--no-config", "--jobs", "2"},
                err),
            0)
      << err;
}

} // namespace
} // namespace adsem::jobs_option_test
