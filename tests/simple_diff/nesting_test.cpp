// The depth guard of simple-diff's machine (Options::max_depth, 100,000 nested evaluations on a
// large stack): rd with R-fast (spec §9 P-1(b)) differentiates the RNN family (its deepest, nine
// nested evaluations a stage) past 10,000 stages, and one stage past the guard is the machine's
// depth error, never a stack overflow.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "tests/simple_diff/helpers.hpp"

namespace adsem::simple_diff::nesting_test {
namespace {

// h_k = tanh(x h_{k-1} + c_k), as properties/simple_diff/complexity_families.cpp builds it:
// rd nests 9n + 3 evaluations.
Term rnn(int n) {
  std::string s = "let h0:real = 0.5 in ";
  for (int i = 1; i <= n; ++i)
    s +=
        "let h" + std::to_string(i) + ":real = tanh(x * h" + std::to_string(i - 1) + " + 0.01) in ";
  return check_source(s + "h" + std::to_string(n), {{"x", real_type()}}).term;
}

Options deep() {
  Options o;
  o.fuel = 100'000'000;
  return o;
}

TEST(SimpleDiffNesting, RnnJustBelowTheMachineGuardDifferentiates) {
  const GradientOutcome g = gradient("x", real_type(), rnn(11'110), {0.3}, deep()); // 99,993
  EXPECT_TRUE(std::isfinite(flatten(g.gradient).at(0)));
}

TEST(SimpleDiffNesting, RnnPastTheMachineGuardIsTheDepthError) {
  try {
    (void)gradient("x", real_type(), rnn(11'111), {0.3}, deep()); // 100,002
    FAIL() << "differentiated past the machine's guard";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::fuel);
    EXPECT_EQ(e.diagnostic().message.rfind("evaluation nested deeper than 100000 levels", 0), 0u);
  }
}

} // namespace
} // namespace adsem::simple_diff::nesting_test
