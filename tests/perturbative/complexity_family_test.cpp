// The T rows of `adsem complexity perturbative` (properties/perturbative/complexity_families.cpp):
// the wide sum is built as a term, so it reaches n = 10,000 although its written form, a chain of
// n - 1 '+', is past the parser's 10,000-level guard; the built term is the parsed one.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "properties/perturbative/complexity_families.hpp"
#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/operation_weights.hpp"
#include "semantics/perturbative/rules.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::perturbative::complexity_family_test {
namespace {

props::ComplexityFamily wide_sum_family() {
  const auto families = complexity_families();
  const auto it = std::find_if(families.begin(), families.end(),
                               [](const auto& f) { return f.family == "wide-sum"; });
  EXPECT_NE(it, families.end());
  return *it;
}

// sin x + cos x + tanh x + exp x + sin x + ... (n summands), as the family used to write it
std::string wide_sum_text(int n) {
  const char* const unary[] = {"sin", "cos", "tanh", "exp"};
  std::string s = "sin x";
  for (int i = 1; i < n; ++i)
    s += fmt::format(" + {} x", unary[i % 4]);
  return s;
}

double steps(const std::string& source) {
  RunOptions o;
  o.fuel = 2'000'000;
  return static_cast<double>(normalise(parse_closed(source), *paper_rules(), o).steps);
}

TEST(PerturbativeComplexityFamilies, WideSumCountsTheStepsOfItsWrittenForm) {
  const props::ComplexityFamily family = wide_sum_family();
  for (const int n : {1, 2, 3, 5, 17, 64}) {
    const std::string lambda = "(\\x:R. " + wide_sum_text(n) + ")";
    const props::ComplexityInstance instance = family.make(n);
    EXPECT_EQ(instance.primal(), steps(lambda + " 0.5")) << n;
    EXPECT_EQ(instance.derivative(), steps("pi1 (T " + lambda + " (1, 0.5))")) << n;
  }
}

TEST(PerturbativeComplexityFamilies, WideSumReachesTenThousandWhereTheParserStops) {
  // the parser's guard still stops the written chain, with a located error
  try {
    parse_closed("\\x:R. " + wide_sum_text(10'001));
    ADD_FAILURE() << "a chain of 10,000 '+' parsed";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    EXPECT_TRUE(e.diagnostic().pos.has_value());
    EXPECT_NE(e.diagnostic().message.find("nested deeper than 10000 levels"), std::string::npos)
        << e.what();
  }
  const props::ComplexityInstance instance = wide_sum_family().make(10'000);
  // (λx. Σ s_i) 0.5 is Σ (λx. s_i) 0.5: a β and a δ per summand, and n - 1 ν merging the reals
  EXPECT_EQ(instance.primal(), 29'999);
}

} // namespace
} // namespace adsem::perturbative::complexity_family_test
