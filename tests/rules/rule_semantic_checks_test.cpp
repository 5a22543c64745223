// The one shape of check-rule's semantic checks (properties/core/rule_semantic_checks.hpp): the
// left side's discard stands, the right side's fuel is a discard and its other errors are
// failures, and the one compare of two vectors of reals.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "properties/core/rule_semantic_checks.hpp"

namespace adsem::rule_semantic_checks_test {
namespace {

using props::TrialResult;
using rules::Reals;

const props::PropertyContext context;
const rules::Comparison labels{"left", "right"};

TEST(RuleSemanticChecks, ALeftDiscardStandsAndTheRightSideIsNotRun) {
  bool ran = false;
  const TrialResult r =
      rules::semantic_check([] { return Reals(TrialResult::discard("lhs-undefined")); },
                            [&] {
                              ran = true;
                              return Reals(std::vector<double>{1.0});
                            },
                            labels, context);
  EXPECT_EQ(r.kind, TrialResult::Kind::discard);
  EXPECT_EQ(r.reason, "lhs-undefined");
  EXPECT_FALSE(ran);
}

TEST(RuleSemanticChecks, TheRightSideOutOfFuelIsADiscardItsOtherErrorsFailures) {
  const auto fuel = rules::right_meaning("L is defined but R fails", []() -> std::vector<double> {
    throw AdsemError(ErrorKind::fuel, "out of fuel");
  });
  ASSERT_FALSE(fuel);
  EXPECT_EQ(fuel.instead.kind, TrialResult::Kind::discard);
  EXPECT_EQ(fuel.instead.reason, "fuel");

  const auto stuck = rules::right_meaning("L is defined but R fails", []() -> std::vector<double> {
    throw AdsemError(ErrorKind::eval, "stuck");
  });
  ASSERT_FALSE(stuck);
  EXPECT_EQ(stuck.instead.kind, TrialResult::Kind::fail);
  EXPECT_EQ(stuck.instead.reason, "L is defined but R fails: eval error: stuck");

  const auto undefined =
      rules::right_meaning("L is defined but R fails", []() -> std::vector<double> {
        throw model::Undefined("outside_domain", "log(-1)");
      });
  ASSERT_FALSE(undefined);
  EXPECT_EQ(undefined.instead.kind, TrialResult::Kind::fail);
  EXPECT_NE(undefined.instead.reason.find("log(-1)"), std::string::npos)
      << undefined.instead.reason;

  // a calculus that counts more errors as discards says which
  const auto counted = rules::right_meaning(
      "L is defined but R fails",
      []() -> std::vector<double> { throw AdsemError(ErrorKind::eval, "stuck"); },
      [](const AdsemError&) { return std::optional<std::string>("mine"); });
  EXPECT_EQ(counted.instead.reason, "mine");
}

TEST(RuleSemanticChecks, OneCompareOfTwoVectorsOfReals) {
  const auto check = [](std::vector<double> l, std::vector<double> r,
                        rules::Overflow overflow = rules::Overflow::expected_discards) {
    rules::Comparison c = labels;
    c.overflow = overflow;
    return rules::semantic_check([&] { return Reals(l); }, [&] { return Reals(r); }, c, context);
  };
  EXPECT_EQ(check({1.0, 2.0}, {1.0, 2.0}).kind, TrialResult::Kind::pass);
  const TrialResult differ = check({1.0, 2.0}, {1.0, 3.0});
  EXPECT_EQ(differ.kind, TrialResult::Kind::fail);
  EXPECT_EQ(differ.reason, "left[1] = 2 but right[1] = 3");
  EXPECT_EQ(check({1.0}, {1.0, 2.0}).reason, "left has 1 reals, right has 2");

  const double inf = std::numeric_limits<double>::infinity();
  const TrialResult expected_overflowed = check({inf}, {1.0});
  EXPECT_EQ(expected_overflowed.kind, TrialResult::Kind::discard);
  EXPECT_EQ(expected_overflowed.reason, props::discards::overflow);
  // an overflowed right side against a finite left is a failure unless the calculus counts it
  EXPECT_EQ(check({1.0}, {inf}).kind, TrialResult::Kind::fail);
  EXPECT_EQ(check({1.0}, {inf}, rules::Overflow::both_discard).kind, TrialResult::Kind::discard);
}

TEST(RuleSemanticChecks, AnOverflowedLeftSideIsADiscard) {
  EXPECT_TRUE(rules::finite_or_overflow(Reals(std::vector<double>{1.0})));
  const Reals nan = rules::finite_or_overflow(Reals(std::vector<double>{1.0, std::nan("")}));
  ASSERT_FALSE(nan);
  EXPECT_EQ(nan.instead.reason, props::discards::overflow);
}

} // namespace
} // namespace adsem::rule_semantic_checks_test
