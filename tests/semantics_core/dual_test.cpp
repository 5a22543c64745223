// Tagged dual numbers: ring laws with ε_t² = 0, tag operations, and the Taylor towers that give
// derivatives of every order.
#include "semantics/core/dual.hpp"
#include "semantics/core/jacobian.hpp"
#include "support.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace adsem::model::dual_test {
namespace {

using D = Dual<double>;

D eps(Tag t) {
  return D::perturbation(0.0, t, 1.0);
}

TEST(Dual, MultiplicationIsMultilinear) {
  const D x = 3.0 + eps(1), y = 2.0 + eps(2);
  const D p = x * y; // 6 + 2ε1 + 3ε2 + ε1ε2
  EXPECT_EQ(p.primal(), 6.0);
  EXPECT_EQ(p.coefficient({1}), 2.0);
  EXPECT_EQ(p.coefficient({2}), 3.0);
  EXPECT_EQ(p.coefficient({1, 2}), 1.0);
  EXPECT_EQ(to_string(p), "6 + 2·ε1 + 3·ε2 + 1·ε1ε2");
  const D square = x * x; // ε1² = 0
  EXPECT_EQ(square.primal(), 9.0);
  EXPECT_EQ(square.coefficient({1}), 6.0);
  EXPECT_EQ(square.tags().size(), 1u);
  // Exact cancellation drops the tag.
  EXPECT_TRUE((x - eps(1)).is_constant());
  EXPECT_EQ(((x * 2.0) / 4.0).coefficient({1}), 0.5);
}

TEST(Dual, TagOperations) {
  const D x = (3.0 + eps(1)) * (2.0 + eps(2));
  const D t1 = tangent_part(x, 1); // coefficient of ε1: 2 + ε2
  EXPECT_EQ(t1.primal(), 2.0);
  EXPECT_EQ(t1.coefficient({2}), 1.0);
  EXPECT_FALSE(t1.depends_on(1));
  const D p1 = primal_part(x, 1); // ε1 := 0: 6 + 3ε2
  EXPECT_EQ(p1.primal(), 6.0);
  EXPECT_EQ(p1.coefficient({2}), 3.0);
  EXPECT_FALSE(p1.depends_on(1));
  EXPECT_TRUE(tangent_part(x, 9).is_constant());
  EXPECT_EQ(tangent_part(x, 9).primal(), 0.0);
  const D swapped = swap_tags(x, 1, 2); // 6 + 3ε1 + 2ε2 + ε1ε2
  EXPECT_EQ(swapped.coefficient({1}), 3.0);
  EXPECT_EQ(swapped.coefficient({2}), 2.0);
  EXPECT_EQ(swapped.coefficient({1, 2}), 1.0);
  const D renamed = swap_tags(x, 1, 5); // rename to a tag that is not present
  EXPECT_EQ(renamed.coefficient({5}), 2.0);
  EXPECT_EQ(renamed.coefficient({2, 5}), 1.0);
  EXPECT_FALSE(renamed.depends_on(1));
}

TEST(Dual, HigherDerivativesFromTheTowers) {
  const double x = 0.7;
  const DiffContext ctx;
  const int order = 6;
  const std::vector<double> s = derivatives([](const D& v) { return sin(v); }, x, order, ctx);
  for (int k = 0; k <= order; ++k)
    EXPECT_NEAR(s[static_cast<std::size_t>(k)], std::sin(x + k * std::numbers::pi / 2), 1e-15) << k;
  const std::vector<double> ex = derivatives([](const D& v) { return exp(v); }, x, order, ctx);
  for (const double d : ex)
    EXPECT_EQ(d, std::exp(x));
  const std::vector<double> lg = derivatives([](const D& v) { return log(v); }, x, 4, ctx);
  EXPECT_NEAR(lg[1], 1 / x, 1e-15);
  EXPECT_NEAR(lg[2], -1 / (x * x), 1e-14);
  EXPECT_NEAR(lg[3], 2 / (x * x * x), 1e-14);
  EXPECT_NEAR(lg[4], -6 / std::pow(x, 4), 1e-13);
  const std::vector<double> sq = derivatives([](const D& v) { return sqrt(v); }, x, 3, ctx);
  EXPECT_NEAR(sq[2], -0.25 * std::pow(x, -1.5), 1e-15);
  EXPECT_NEAR(sq[3], 0.375 * std::pow(x, -2.5), 1e-14);
  const double t = std::tanh(x);
  const std::vector<double> th = derivatives([](const D& v) { return tanh(v); }, x, 3, ctx);
  EXPECT_NEAR(th[1], 1 - t * t, 1e-15);
  EXPECT_NEAR(th[2], -2 * t * (1 - t * t), 1e-15);
  EXPECT_NEAR(th[3], -2 * (1 - t * t) * (1 - 3 * t * t), 1e-15);
  const std::vector<double> rc = derivatives([](const D& v) { return 1.0 / v; }, x, 3, ctx);
  EXPECT_NEAR(rc[3], -6 / std::pow(x, 4), 1e-13);
  // x^7: the seventh derivative is 7! everywhere, the eighth 0.
  const std::vector<double> p7 = derivatives(
      [](const D& v) {
        D r = 1.0;
        for (int i = 0; i < 7; ++i)
          r *= v;
        return r;
      },
      1.3, 8, ctx);
  EXPECT_NEAR(p7[7], 5040.0, 1e-9);
  EXPECT_EQ(p7[8], 0.0);
}

// Composition in the ring is the chain rule: the Taylor expansion of a composite agrees with
// the towers of its parts, here d²/dx² sin(exp x) = exp x cos(exp x) - exp(2x) sin(exp x).
RC_GTEST_PROP(DualProperties, SecondDerivativeOfAComposite, ()) {
  const double x = test::draw_real(-2, 2);
  const std::vector<double> d =
      derivatives([](const D& v) { return sin(exp(v)); }, x, 2, DiffContext());
  const double ex = std::exp(x);
  const double expected = ex * std::cos(ex) - ex * ex * std::sin(ex);
  RC_ASSERT(std::abs(d[2] - expected) <= 1e-12 * (1 + std::abs(expected)));
}

TEST(Dual, IntervalCoefficientsEncloseTheDerivativesOverABox) {
  using DI = Dual<Interval>;
  const Interval box(0.5, 0.6);
  const DI x = DI::perturbation(box, 1, Interval(1.0));
  const DI y = sin(x) * exp(x);
  for (const double p : {0.5, 0.55, 0.6}) {
    EXPECT_TRUE(encloses(y.primal(), std::sin(p) * std::exp(p)));
    EXPECT_TRUE(encloses(y.coefficient({1}), (std::cos(p) + std::sin(p)) * std::exp(p)));
  }
  const Dual<Interval> lifted =
      (3.0 + eps(1)).map_coefficients<Interval>([](double c) { return Interval(c); });
  EXPECT_EQ(lifted.coefficient({1}).lower(), 1.0);
}

// Up to Dual::inline_tags live tags are stored inside the number, more on the heap: the ring
// and the tag operations must not depend on where the coefficients live.
TEST(Dual, SameResultsInsideAndBeyondTheInlineStorage) {
  static_assert(D::inline_tags == 2);
  D x = 1.0;
  for (Tag t = 1; t <= 5; ++t)
    x *= 1.0 + eps(t); // Π (1 + ε_t): every one of the 32 coefficients is 1
  EXPECT_EQ(x.tags().size(), 5u);
  EXPECT_EQ(x.coefficient({1, 3, 5}), 1.0);
  EXPECT_EQ(x.coefficient({1, 2, 3, 4, 5}), 1.0);
  const D t3 = tangent_part(x, 3); // Π_{t≠3} (1 + ε_t): back to 4 tags
  EXPECT_EQ(t3.tags().size(), 4u);
  EXPECT_FALSE(t3.depends_on(3));
  EXPECT_EQ(t3.coefficient({1, 2, 4, 5}), 1.0);
  const D two = primal_part(primal_part(primal_part(x, 5), 4), 3); // (1 + ε1)(1 + ε2): inline
  EXPECT_EQ(to_string(two), "1 + 1·ε1 + 1·ε2 + 1·ε1ε2");
  const D swapped = swap_tags(x * (2.0 + eps(7)), 1, 7); // ε1 now carries the 2 + ε part
  EXPECT_EQ(swapped.coefficient({7}), 2.0);
  EXPECT_EQ(swapped.coefficient({1}), 1.0);
  EXPECT_EQ(swapped.coefficient({1, 7}), 1.0);
  D copy = x; // copies and moves of a heap-stored number keep its coefficients
  const D moved = std::move(copy);
  EXPECT_EQ(moved.coefficient({2, 4}), 1.0);
  D assigned = 2.0 + eps(9); // a copy assigned over an inline number, then over a heap one
  assigned = x;
  EXPECT_EQ(assigned.coefficient({1, 2, 3, 4, 5}), 1.0);
  assigned = moved;
  EXPECT_EQ(assigned.tags().size(), 5u);
  EXPECT_EQ(assigned.coefficient({3}), 1.0);
  EXPECT_TRUE((x - moved).is_constant());
  EXPECT_EQ((x - moved).primal(), 0.0);
  // Cancelling the high tags brings the number back to inline size, value unchanged.
  const D back = x - (x - two);
  EXPECT_EQ(back.tags().size(), 2u);
  EXPECT_EQ(to_string(back), to_string(two));
}

// Constants multiply, add, subtract and divide by a shortcut; its result must be the bits the
// general path gives for the same coefficient (the general path runs when the other operand
// carries a perturbation): signed zeros, infinities and NaN included.
TEST(Dual, ConstantShortcutsGiveTheGeneralPathsBits) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> xs = {0.0, -0.0, 1.5, -2.0, 1e-310, 1e308, inf, -inf, nan, -nan};
  auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  for (const double a : xs)
    for (const double b : xs) {
      const D ca = a, cb = b;
      const D pa = D::perturbation(a, 1, 1.0), pb = D::perturbation(b, 2, 1.0);
      SCOPED_TRACE(std::to_string(a) + " and " + std::to_string(b));
      // Two NaN operands: IEEE 754 (§6.2.3) leaves open which one the result keeps, and a
      // compiler may commute + and * (clang does here), so only NaN-ness is the same there.
      const bool both_nan = std::isnan(a) && std::isnan(b);
      auto same = [&](double x, double y) {
        if (both_nan)
          EXPECT_TRUE(std::isnan(x) && std::isnan(y));
        else
          EXPECT_EQ(bits(x), bits(y));
      };
      EXPECT_TRUE((ca * cb).is_constant());
      same((ca * cb).primal(), (ca * pb).primal()); // scaled
      same((ca + cb).primal(), (ca + pb).primal()); // combine
      same((ca - cb).primal(), (ca - pb).primal());
      same((ca / cb).primal(), (pa / cb).primal()); // constant divisor
      EXPECT_TRUE((ca + cb).is_constant() && (ca / cb).is_constant());
    }
}

TEST(Dual, TooManyLiveTagsIsAnError) {
  D x = 1.0;
  for (Tag t = 1; t <= D::max_live_tags; ++t)
    x = x + eps(t);
  EXPECT_THROW((void)(x + eps(100)), AdsemError);
}

} // namespace
} // namespace adsem::model::dual_test
