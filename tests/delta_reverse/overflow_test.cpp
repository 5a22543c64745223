// IEEE overflow inside the calculus's own evaluation (campaign false alarms): nested exp
// overflows to inf, after which R1's 0 · inf, the forward tangent's 0 · inf and 1 / inf = 0 make
// NaN or a spurious 0 that the properties compared with a number. The primitive that overflows
// now throws model::Overflow, and every property counts the trial as the discard "overflow".
// Each case is the shrunk counterexample's term, at a point of its input type.
#include <gtest/gtest.h>

#include "properties/delta_reverse/support.hpp"
#include "semantics/core/overflow.hpp"
#include "tests/delta_reverse/helpers.hpp"

namespace adsem::delta_reverse::testing::overflow_test {
namespace {

using props::TrialResult;

constexpr long fuel = 200'000;

// The overflow is reported at its cause, and a property body sees it as the discard "overflow".
template <class Run> void expect_overflow_discard(const Run& run) {
  EXPECT_THROW(run(), model::Overflow);
  const TrialResult r = support::guarded([&] {
    run();
    return TrialResult::pass();
  });
  EXPECT_EQ(r.kind, TrialResult::Kind::discard);
  EXPECT_EQ(r.reason, "overflow");
}

// reverse-versions-agree: the primal is exp(exp(10.5)) = inf; R gave 0, R1 gave 0 · inf = NaN.
TEST(DeltaReverseOverflow, ReverseOneOfANestedExpOverflowIsADiscard) {
  const Fixture f = setup("let v0 = \\(v1 : Real). exp v1 in let v2 = v0 (v0 1.0) / v0 (v0 (-1.0)) "
                          "in \\(v3 : Real). v0 (v0 v2)",
                          {0.5});
  expect_overflow_discard([&] { reverse1(f.program, f.s, 1.0, RunSetup{}, fuel); });
}

// forward-reverse-duality: exp of an overflowed exp inside a sum-typed program; F gave NaN.
TEST(DeltaReverseOverflow, ForwardTangentThroughAnOverflowIsADiscard) {
  const Typed t = parse_closed(
      "let v0 = \\(v1 : Real * Real). exp snd v1 in let v2 = \\(v3 : Real * Real). case "
      "inr[Real] inl[Real] fst v3 of inl v4 -> v4 | inr v5 -> v0 v3 in \\(v6 : Real + Real * "
      "Real). (v2 (1.0, v2 (1.0, 1.0)), tanh (let v7 = v2 (v2 (1.0, 1.0), v2 (1.0, 1.0)) in "
      "v2 (v7, v2 (v7, v7))))");
  const RealProgram p = real_program(t);
  const Value s = v_inl(v_real(0.5));
  expect_overflow_discard([&] { forward(p.program, s, v_inl(v_real(1.0)), RunSetup{}, fuel); });
}

// wrapper-variants-agree: 1 / exp(exp(exp(exp 3))) is 0 in double, the forward plan's tangent
// 0 · inf = NaN, the reverse plan's 0.
TEST(DeltaReverseOverflow, ForwardPlanOfAReciprocalOfAnOverflowIsADiscard) {
  const Typed t = parse_closed("let v0 = \\(v1 : Real). exp v1 in \\(v2 : Real + Real * Real). "
                               "1.0 / exp (v0 (v0 3.0))");
  const RealProgram p = real_program(t);
  const Value s = v_inr(v_pair(v_real(0.5), v_real(-1.0)));
  expect_overflow_discard(
      [&] { forward(p.program, s, v_inr(v_pair(v_real(1.0), v_real(0.0))), RunSetup{}, fuel); });
}

} // namespace
} // namespace adsem::delta_reverse::testing::overflow_test
