// The unmodified calculus where floating point, not the reduction, differs from the model: a
// gradient component is a sum over the chain rule's paths, and rounding errs relative to those
// terms, so the trial passes.
#include <gtest/gtest.h>

#include "properties/simple_diff/oracles.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/parser.hpp"
#include "syntax/simple_diff/typecheck.hpp"

namespace adsem::simple_diff::false_alarm_test {
namespace {

// ∂(x⁴·e^{x²} − e^{x²}·x⁴)/∂x is exactly 0 in the model's duals; rd sums terms of about 4·10⁶ at
// x = 3.3 in another order and gives 4.19e-9, which the comparison against 0 with atol 1e-12
// called a failure (rd-matches-model).
TEST(SimpleDiffFalseAlarm, GradientThatCancelsIsComparedToItsTerms) {
  const Type real = parse_type("real");
  const Term body =
      typecheck(parse_term("(x*x)*(x*x)*exp(x*x) - exp(x*x)*((x*x)*(x*x))", primitives()),
                primitives(), {{"x", real}})
          .term;
  for (const double at : {3.3, 3.1, 2.7, -3.3}) {
    const std::vector<double> g = flatten(gradient("x", real, body, {at}, Options{}).gradient);
    const props::TrialResult r = oracle::compare_with_model_vjp(
        body, "x", real, {at}, {1.0}, "model gradient", g, "1.rd_V(x.N)", {});
    EXPECT_EQ(r.kind, props::TrialResult::Kind::pass) << "x = " << at << ": " << r.reason;
  }
}

// W.rd_V(x:unit. N) is * only where N is defined at V (spec P-EQ-9, seed 003 lines 597-609). The
// model answered * without walking N, since a unit point has no reals and so the Jacobian no
// columns, and both adequacy properties failed on the paper's rules (`adsem enumerate simple-diff
// -k 7` found this term, the smallest such).
TEST(SimpleDiffFalseAlarm, RdAtAUnitBinderIsDefinedOnlyWhereItsBodyIs) {
  const Type real = parse_type("real");
  const Term m = typecheck(parse_term("let y1:unit = x.rd[()](y1:unit. log(x)) in x", primitives()),
                           primitives(), {{"x", real}})
                     .term;
  EXPECT_EQ(oracle::denote(m, "x", real, {-1.5}, false).status,
            oracle::Denotation::Status::undefined);
  const oracle::Denotation defined = oracle::denote(m, "x", real, {1.5}, false);
  ASSERT_EQ(defined.status, oracle::Denotation::Status::defined);
  EXPECT_EQ(defined.value, std::vector<double>{1.5});
}

} // namespace
} // namespace adsem::simple_diff::false_alarm_test
