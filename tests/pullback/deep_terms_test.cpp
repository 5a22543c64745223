// Deep terms in the reducer (syntax/pullback/nesting.hpp): the paper's mechanism differentiates a
// let series of 10,000 stages (seed 000 §5.1 L519, the linear-cost claim's family) and a sharing
// chain of 10,000, whose queries nest about 2n and more than 3n levels while they reduce; past
// max_term_nesting the reducer answers with its located depth error, not a stack overflow.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "properties/pullback/frontend.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/pullback/nesting.hpp"

namespace adsem::pullback::deep_terms_test {
namespace {

std::string let_series(int n) {
  std::string s = "\\x0:R. ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let x{} = {}(x{}) in ", i, i % 2 == 1 ? "sin" : "tanh", i - 1);
  return s + fmt::format("x{}", n);
}

std::string sharing_chain(int n) {
  std::string s = "\\x0:R. ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let x{} = mult(<x{}, x{}>) in ", i, i - 1, i - 1);
  return s + fmt::format("x{}", n);
}

double gradient(const std::string& source, double at, const std::string& mechanism) {
  const props::GradResult r = Frontend{}.grad(source, {at}, mechanism, {});
  EXPECT_EQ(r.mechanism, mechanism);
  return r.gradient.at(0);
}

// n = 5,000 ended "term nested deeper than 10000" before the reducer's walks had their own limit.
TEST(PullbackDeepTerms, ThePapersMechanismDifferentiatesTenThousandStages) {
  for (const int n : {5'000, 10'000}) {
    const std::string series = let_series(n);
    EXPECT_DOUBLE_EQ(gradient(series, 0.3, "pullback"), gradient(series, 0.3, "pullback-sparse"))
        << n;
  }
  // d/dx of x^(2^n) at 1/2 underflows to 0 by either mechanism; what is tested is that the
  // reduction of a query nested over 30,000 levels ends
  const std::string chain = sharing_chain(10'000);
  EXPECT_EQ(gradient(chain, 0.5, "pullback"), gradient(chain, 0.5, "pullback-sparse"));
}

// A redex under 60,000 pairs: the search reaches the limit before it and stops there. The term
// is built, searched and freed on the large stack (its destruction recurses as deep).
TEST(PullbackDeepTerms, DeeperThanTheLimitIsTheReducersDepthError) {
  on_large_stack([] {
    Term t = prim("sin", arrow(real_type(), real_type()), num(1.0));
    for (int i = 0; i < max_term_nesting + 10'000; ++i)
      t = pair(t, num(1.0));
    try {
      normalise(t);
      ADD_FAILURE() << "a term nested deeper than the limit normalised";
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::eval);
      EXPECT_EQ(e.diagnostic().message,
                "term nested deeper than " + std::to_string(max_term_nesting));
    }
  });
}

} // namespace
} // namespace adsem::pullback::deep_terms_test
