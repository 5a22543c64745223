// Every resource bounded: a flat sum as deep as it is long reaches the type checker's
// located depth error instead of overflowing the stack in the renaming before it, a term at the
// nesting limit is read, printed, differentiated and normalised on the large stack, and the values
// rule (9) copies count against fuel (one step however large the copy, spec §7 P10).
#include <string>

#include <gtest/gtest.h>

#include "semantics/linear_negation/denotation.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {
namespace {

Term flat_sum(int n) { // ((1 + 1) + 1) + ... : n - 1 levels
  Term t = num(1);
  for (int i = 1; i < n; ++i)
    t = with_pos(add(t, num(1)), SourcePos{1, 4 * i});
  return t;
}

// f_k = λy. f_{k-1} (f_{k-1} y): a term of size O(n) whose denotation applies f_1 2^n times. The
// model's work cap ends it as a fuel error the properties count as a discard
// (WorkBudget::ran_over), where it ran for minutes and was killed as a `timeout` counterexample.
TEST(LinearNegationResources, AnExponentialDenotationEndsAtTheModelsWorkCap) {
  std::string text = "\\x:R. let f0 = \\y:R. y + y in ";
  for (int k = 1; k <= 40; ++k)
    text += "let f" + std::to_string(k) + " = \\y:R. f" + std::to_string(k - 1) + " (f" +
            std::to_string(k - 1) + " y) in ";
  text += "f40 x";
  const Typed t = parse_elaborated(text, Mode::source);
  try {
    (void)denote<double>(t.term, nullptr)(model::Value<double>(model::Dual<double>(1.0)));
    ADD_FAILURE() << "no error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::fuel);
    EXPECT_TRUE(WorkBudget::ran_over(e.diagnostic())) << e.diagnostic().message;
  }
}

TEST(LinearNegationResources, FlatSumPastTheLimitIsALocatedTypeError) {
  try {
    (void)elaborate(flat_sum(40'000)); // 14,000 overflowed the stack before the guard
    ADD_FAILURE() << "no error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::type);
    EXPECT_EQ(e.diagnostic().message, "term nested deeper than 30000 levels");
    ASSERT_TRUE(e.diagnostic().pos.has_value());
  }
}

TEST(LinearNegationResources, FlatSumBelowTheLimitElaborates) {
  EXPECT_TRUE(is_real(elaborate(flat_sum(29'000)).type));
}

// sin(tanh(sin(… x))): each stage is two parser levels (the primitive and its argument list), so
// 14,990 stages are just below the guard of 30,000 (syntax/linear_negation/nesting.hpp) and
// 15,001 just beyond it.
std::string primitive_chain(int stages) {
  std::string open, close;
  for (int i = 0; i < stages; ++i) {
    open += i % 2 == 0 ? "sin(" : "tanh(";
    close += ")";
  }
  return "\\x:!R. " + open + "x" + close;
}

TEST(LinearNegationResources, ATermAtTheNestingLimitParsesPrintsAndNormalises) {
  const Typed t = parse_elaborated(primitive_chain(14'990), Mode::target);
  EXPECT_EQ(depth_of(t.term), 14'992); // λ, the stages, x
  // printed and read back: the printer and the parser keep the same guard
  EXPECT_EQ(depth_of(parse_elaborated(print(t.term), Mode::target).term), 14'992);
  // a value: no step, but the summaries walk all of it
  EXPECT_EQ(normalise(t.term, RunOptions{}).steps, 0);
}

// f's body is 1,200 levels deep and its call sits under 1,000 more: the reduction starts on the
// default stack and moves to the large stack when (9) copies f into the call (the normal form
// λz. sin(… sin(z)) is 2,202 levels deep).
TEST(LinearNegationResources, AReductionThatDeepensMovesToTheLargeStack) {
  const auto sines = [](int n, const std::string& inner) {
    std::string t = inner;
    for (int i = 0; i < n; ++i)
      t = "sin(" + t + ")";
    return t;
  };
  const Typed t = parse_elaborated(
      "let f = \\y:!R. " + sines(1'200, "y") + " in \\z:!R. " + sines(1'000, "f z"), Mode::target);
  ASSERT_LT(depth_of(t.term), 2'000);
  const linear_negation::Run run = normalise(t.term, RunOptions{});
  EXPECT_EQ(depth_of(run.result), 2'202);
}

TEST(LinearNegationResources, DOfATermAtTheNestingLimitBuildsTheGradientWrapper) {
  const Typed t = parse_elaborated(primitive_chain(10'000), Mode::source);
  const RealFunction f = real_function(t);
  const Wrapper w = gradient_wrapper(f.body, f.inputs, {0.5});
  EXPECT_GT(depth_of(w.term), 10'000);
  EXPECT_EQ(w.backprop.size(), 1U);
}

TEST(LinearNegationResources, ATermPastTheNestingLimitIsALocatedParseError) {
  try {
    (void)parse_elaborated(primitive_chain(15'001), Mode::target);
    ADD_FAILURE() << "no error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    EXPECT_EQ(e.diagnostic().message, "term nested deeper than 30000 levels");
    ASSERT_TRUE(e.diagnostic().pos.has_value());
    EXPECT_EQ(e.diagnostic().pos->line, 1);
  }
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

// A maximal sum is gathered and matched again at each step (AC): 1,000 summands, each a β-redex,
// cost thousands of visits per step. That search is spent against fuel too (RunOptions::
// search_per_step), so a long search ends as a work-cap fuel error, not after minutes.
TEST(LinearNegationResources, FindingRedexesSpendsFuel) {
  std::string text = "(\\x:R. x) 1";
  for (int i = 1; i < 1000; ++i)
    text += " + (\\x:R. x) 1";
  const Term t = parse_elaborated(text, Mode::target).term;
  RunOptions o;
  o.search_per_step = 1; // a cap of 200,000 visits; the normal form needs about 1,000 steps
  try {
    (void)normalise(t, o);
    ADD_FAILURE() << "no fuel error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::fuel);
    EXPECT_NE(e.diagnostic().message.find("finding redexes"), std::string::npos)
        << e.diagnostic().message;
    EXPECT_TRUE(WorkBudget::ran_over(e.diagnostic()));
  }
  EXPECT_GT(normalise(t, RunOptions{}).steps, 999); // with the default allowance it normalises
}

} // namespace
} // namespace adsem::linear_negation
