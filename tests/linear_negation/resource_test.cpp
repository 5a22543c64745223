// Every resource bounded: a flat sum as deep as it is long reaches the type checker's
// located depth error instead of overflowing the stack in the renaming before it, and the values
// rule (9) copies count against fuel (one step however large the copy, spec §7 P10).
#include <gtest/gtest.h>

#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/reduction.hpp"

namespace adsem::linear_negation {
namespace {

Term flat_sum(int n) { // ((1 + 1) + 1) + ... : n - 1 levels
  Term t = num(1);
  for (int i = 1; i < n; ++i)
    t = with_pos(add(t, num(1)), SourcePos{1, 4 * i});
  return t;
}

TEST(LinearNegationResources, FlatSumPastTheLimitIsALocatedTypeError) {
  try {
    (void)elaborate(flat_sum(20'000)); // 14,000 overflowed the stack
    ADD_FAILURE() << "no error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::type);
    EXPECT_EQ(e.diagnostic().message, "term nested deeper than 10000 levels");
    ASSERT_TRUE(e.diagnostic().pos.has_value());
  }
}

TEST(LinearNegationResources, FlatSumBelowTheLimitElaborates) {
  EXPECT_TRUE(is_real(elaborate(flat_sum(9'000)).type));
}

// f, a λ of ~800 nodes, copied twice by (9): seven steps, 1,600 nodes copied.
std::string copies_a_large_value() {
  std::string body = "w";
  for (int i = 0; i < 400; ++i)
    body += " + w";
  return "let f = \\y:!R. \\w:!R. " + body + " in (f 1, f 2)";
}

TEST(LinearNegationResources, CopiedValuesSpendFuel) {
  const Term t = parse_elaborated(copies_a_large_value(), Mode::target).term;
  const linear_negation::Run enough = normalise(t, RunOptions{});
  ASSERT_LT(enough.steps, 20);
  ASSERT_GT(enough.copy_volume, 20 * 64);
  RunOptions o;
  o.fuel = 20; // enough steps, not enough work: 20 * 64 nodes
  try {
    (void)normalise(t, o);
    ADD_FAILURE() << "no fuel error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::fuel);
    EXPECT_NE(e.diagnostic().message.find("copying values"), std::string::npos)
        << e.diagnostic().message;
    // the properties that read a fuel error as "no normal form" tell this one apart
    EXPECT_TRUE(WorkBudget::ran_over(e.diagnostic()));
  }
}

} // namespace
} // namespace adsem::linear_negation
