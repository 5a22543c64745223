// The unmodified calculus where floating point, not the reduction, differs from the model: the
// comparison must weigh rounding relative to the chain rule's terms, so the trial passes.
#include <gtest/gtest.h>

#include "properties/linear_negation/properties.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/typecheck.hpp"

namespace adsem::linear_negation::false_alarm_test {
namespace {

// `campaign all -t 600 -s 26`: ∂/∂x1 of f(f(exp(x1/x1))), f(y) = (y·y)², is exactly 0 in the
// model's duals; read-back A summed 16·e¹⁶·(1/x1) and −16·e¹⁶·(x1/x1²) and gave 1.49e-8, which the
// comparison against 0 with atol 1e-10 called a failure. Relative to the terms (about 1.4e8/|x1|)
// it is rounding.
TEST(LinearNegationFalseAlarm, GradientThatCancelsIsComparedToItsTerms) {
  const std::string text =
      "(f1 (f1 exp(div(x1, x1))))[f1:!(R -> R) := \\y2:!R. (z3 * z3)[z3:!R := y2 * y2]]";
  gen::Source s;
  s.inputs = {"x1"};
  s.body = typecheck(parse_term(text, signature(), Mode::source), s.context(), signature(),
                     std::nullopt, {.source = true})
               .term;
  int failures = 0;
  for (int i = -40; i <= 40; ++i) {
    if (i == 0) continue;
    s.point = {i / 20.0 + 0.013};
    const props::TrialResult r = gradient_soundness_at(s, {});
    if (r.kind == props::TrialResult::Kind::fail || r.kind == props::TrialResult::Kind::error) {
      ++failures;
      ADD_FAILURE() << "x1 = " << s.point[0] << ": " << r.reason;
    }
  }
  EXPECT_EQ(failures, 0);
}

} // namespace
} // namespace adsem::linear_negation::false_alarm_test
