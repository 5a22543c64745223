// Linear-time evaluation of flat sums: refocusing fuses a run of (N1) steps at one sum.
// It must leave every observable unchanged: the steps, their rule counts, the result (the same
// additions in the same order) and the fuel error. (The time is tests/reliability.)
#include <gtest/gtest.h>

#include "properties/pullback/frontend.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback::resource_test {
namespace {

Run run(const std::string& source, bool trace, long fuel = 200'000) {
  RunOptions o;
  o.trace = trace; // traced: one step at a time, nothing fused
  o.fuel = fuel;
  return normalise(parse_closed(source), {}, o);
}

TEST(PullbackResources, FusedNumeralMergesMatchTheStepByStepRun) {
  for (const std::string source :
       {"1 + 2 + 3", "0.1 + 0.2 + 0.3 + 1e16 + 1 + 1 + -1e16", "1 + sin(2) + 3 + <4, 5>.1 + 6",
        "(\\x:R. x + 1 + x + 2) 3 + 4 + 5", "<1 + 2 + 3, 4 + 5>"}) {
    const pullback::Run fused = run(source, false);
    const pullback::Run stepped = run(source, true);
    EXPECT_EQ(fused.steps, stepped.steps) << source;
    EXPECT_EQ(fused.rule_counts, stepped.rule_counts) << source;
    EXPECT_EQ(print(fused.result), print(stepped.result)) << source;
  }
}

TEST(PullbackResources, FusedMergesCountAgainstFuel) {
  const std::string sum = "1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"; // 9 steps of N1
  EXPECT_EQ(run(sum, false, 9).steps, 9);
  for (const bool trace : {false, true}) {
    try {
      (void)run(sum, trace, 8);
      ADD_FAILURE() << "no fuel error";
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::fuel);
      EXPECT_EQ(e.diagnostic().message, "out of fuel after 8 steps");
    }
  }
}

} // namespace
} // namespace adsem::pullback::resource_test
