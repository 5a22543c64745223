// A rule that the calculus's rule book declares unfireable in its reading (simple-diff's O-ctx and
// O-ctxb: the compositional evaluator realises Fig. 3's contexts as premises) is not reported as
// "never fired" after a campaign; a rule expected to fire still would be.
#include <string>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "support/cli_run.hpp"

namespace adsem::unfireable_rules_test {
namespace {

TEST(RuleCoverageWarnings, UnfireableRulesAreNotReported) {
  const auto run = testing::run_cli(cli::builtin_registry(),
                                    {"campaign", "simple-diff", "--trials", "25", "--seed", "5",
                                     "--no-corpus", "--no-config", "--no-isolate"});
  EXPECT_EQ(run.out.find("rule O-ctx never fired"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("rule O-ctxb never fired"), std::string::npos) << run.out;
}

} // namespace
} // namespace adsem::unfireable_rules_test
