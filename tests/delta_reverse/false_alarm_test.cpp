// The unmodified calculus where floating point, not the translation, differs from the model: a
// component of F{e} or R{e} is a sum over the chain rule's paths, and rounding errs relative to
// those terms, so the trial passes.
#include "properties/delta_reverse/properties.hpp"
#include "tests/delta_reverse/helpers.hpp"

namespace adsem::delta_reverse::false_alarm_test {
namespace {

// ∂(x⁴·e^{x²} − e^{x²}·x⁴)/∂x is exactly 0 in the model's duals; R{e} sums terms of about 4·10⁶
// at x = 3.3 in another order and gives 4.19e-9, which the comparison against 0 with atol
// called a failure (reverse-correctness); forward-correctness compares the same sums.
TEST(DeltaReverseFalseAlarm, GradientThatCancelsIsComparedToItsTerms) {
  const std::string source = "\\(x : Real). (x*x)*(x*x)*exp(x*x) - exp(x*x)*((x*x)*(x*x))";
  for (const double at : {3.3, 3.1, 2.7, -3.3}) {
    const testing::Fixture f = testing::setup(source, {at});
    const support::Drawn d{{f.program.term, f.program.s, f.program.t, {}}, f.program, f.s};
    const props::TrialResult r = reverse_correctness_at(d, point_of(f.program.t, {1.0}), {});
    EXPECT_EQ(r.kind, props::TrialResult::Kind::pass) << "x = " << at << ": " << r.reason;
    const props::TrialResult fw = forward_correctness_at(d, point_of(f.program.s, {1.0}), {});
    EXPECT_EQ(fw.kind, props::TrialResult::Kind::pass) << "x = " << at << ": " << fw.reason;
  }
}

} // namespace
} // namespace adsem::delta_reverse::false_alarm_test
