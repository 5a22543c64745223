// delta-reverse's depth guards (syntax/delta_reverse/nesting.hpp: 50,000 levels for the parser,
// the type checker, the printer, the translations and the Delta evaluation; as many nested
// evaluations in the machine; 10,000 for a written type), all on a large stack past 2,000 levels:
// the complexity families of 10,000 stages (seed 001 §7.4) read, check and differentiate, and one
// level past a guard is a located error, never a stack overflow.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "helpers.hpp"
#include "properties/delta_reverse/cost_properties.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse::nesting_test {
namespace {

// A let is one parser level; the lambda and the last body add three.
std::string let_series(int n) {
  std::string s = "\\(x : Real). ";
  for (int i = 0; i < n; ++i)
    s += "let x = sin x in ";
  return s + "x";
}

// g_k = λy. apply g_{k-1} y * 0.9 + y applied at 0.3: four nested evaluations a stage.
std::string nested_closures(int n) {
  std::string s = "let apply = \\(f : Real -> Real). \\(y : Real). f y in "
                  "let g0 = \\(y : Real). sin y in ";
  for (int i = 1; i <= n; ++i)
    s += "let g" + std::to_string(i) + " = \\(y : Real). apply g" + std::to_string(i - 1) +
         " y * 0.9 + y in ";
  return s + "g" + std::to_string(n) + " 0.3";
}

void expect_depth_error(const AdsemError& e, ErrorKind kind, const std::string& message) {
  EXPECT_EQ(e.diagnostic().kind, kind);
  EXPECT_EQ(e.diagnostic().message, message);
  EXPECT_TRUE(e.diagnostic().pos.has_value());
}

TEST(DeltaReverseNesting, LetSeriesUpToTheSourceGuard) {
  const Typed deepest = typecheck(parse_term(let_series(49'996)));
  EXPECT_EQ(print_type(deepest.type), "Real -> Real");
  EXPECT_EQ(print(deepest.term).rfind("\\(x : Real). let x = sin x in let", 0), 0u);
  const std::string beyond = let_series(49'997);
  try {
    (void)parse_term(beyond);
    FAIL() << "parsed a let series past the guard";
  } catch (const AdsemError& e) {
    expect_depth_error(e, ErrorKind::parse, "term nested deeper than 50000 levels");
    if (e.diagnostic().pos) {
      EXPECT_GT(e.diagnostic().pos->column, static_cast<int>(beyond.size()) - 100);
    }
  }
}

// A written type nests at most 10,000 levels (its walks have no guard of their own):
// `Real * ... * Real` of 50,000 factors overflowed the stack in print_type.
std::string product_parameter(int factors) {
  std::string s = "\\(p : Real";
  for (int i = 1; i < factors; ++i)
    s += " * Real";
  return s + "). 1.0";
}

TEST(DeltaReverseNesting, WrittenTypesUpToTheirGuard) {
  EXPECT_NO_THROW((void)print_type(typecheck(parse_term(product_parameter(9'990))).type));
  for (const int factors : {10'000, 50'000}) {
    try {
      (void)parse_term(product_parameter(factors));
      FAIL() << "parsed a type past its guard";
    } catch (const AdsemError& e) {
      expect_depth_error(e, ErrorKind::parse, "term nested deeper than 10000 levels");
    }
  }
}

TEST(DeltaReverseNesting, WideSumOfTenThousandDifferentiates) {
  // the complexity family's widest term: its tuple parameter's lets and its sum nest 40,000
  // levels through the type checker, Drev (Fig. 9) and eval (Fig. 10)
  const int n = 10'000;
  const testing::Fixture f = testing::setup(sum_chain(n), std::vector<double>(n, 0.75));
  const ReverseRun r =
      reverse(f.program, f.s, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, 100'000'000);
  EXPECT_EQ(testing::reals(r.gradient), std::vector<double>(n, 1.0));
  EXPECT_DOUBLE_EQ(r.primal->real, 0.75 * n);
}

TEST(DeltaReverseNesting, NestedClosuresUpToTheMachineGuard) {
  Ledger ledger;
  EXPECT_NO_THROW((void)eval_closed(parse_closed(nested_closures(12'499)).term, ledger));
  try {
    Ledger beyond;
    (void)eval_closed(parse_closed(nested_closures(12'500)).term, beyond);
    FAIL() << "evaluated past the machine's guard";
  } catch (const AdsemError& e) {
    expect_depth_error(e, ErrorKind::eval, "evaluation nested deeper than 50000");
  }
}

} // namespace
} // namespace adsem::delta_reverse::nesting_test
