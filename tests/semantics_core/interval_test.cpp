// The interval scalar: outward rounding without rounding-mode switches, checked against extended
// precision (long double) references.
#include "semantics/core/interval.hpp"
#include "support.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

namespace adsem::model::interval_test {
namespace {

bool encloses_ld(const Interval& x, long double v) {
  return x.lower() <= v && v <= x.upper();
}

TEST(Interval, ExactOperationsStayPoints) {
  const Interval two = Interval(1.0) + Interval(1.0);
  EXPECT_EQ(two.lower(), 2.0);
  EXPECT_EQ(two.upper(), 2.0);
  EXPECT_TRUE(is_exact_zero(Interval(0.0) * Interval(-3.0, 5.0)));
  const Interval e0 = exp(Interval(0.0));
  EXPECT_EQ(e0.lower(), 1.0);
  EXPECT_EQ(e0.upper(), 1.0);
  EXPECT_TRUE(is_exact_zero(log(Interval(1.0))));
}

TEST(Interval, InexactOperationsAreWidenedOutward) {
  const Interval third = Interval(1.0) / Interval(3.0);
  EXPECT_LT(third.lower(), third.upper());
  EXPECT_TRUE(encloses_ld(third, 1.0L / 3.0L));
  EXPECT_EQ(std::nextafter(third.lower(), 1.0), third.upper()); // one ulp wide
  const Interval sum = Interval(0.1) + Interval(0.2);
  EXPECT_TRUE(encloses_ld(sum, static_cast<long double>(0.1) + static_cast<long double>(0.2)));
  EXPECT_LE(sum.upper(), std::nextafter(sum.lower(), 1.0)); // tight: at most one ulp
  const Interval r = sqrt(Interval(2.0));
  EXPECT_TRUE(encloses_ld(r, std::sqrt(2.0L)));
  EXPECT_EQ(to_string(Interval(1.0, 2.0)), "[1, 2]");
}

// Transcendentals enclose the long double reference at random points; sums and quotients enclose
// the exact result (computed exactly in long double for operands of similar size).
RC_GTEST_PROP(IntervalProperties, EnclosesExtendedPrecisionReferences, ()) {
  const double x = test::draw_real(-20, 20);
  const long double lx = x;
  RC_ASSERT(encloses_ld(exp(Interval(x)), std::exp(lx)));
  RC_ASSERT(encloses_ld(sin(Interval(x)), std::sin(lx)));
  RC_ASSERT(encloses_ld(cos(Interval(x)), std::cos(lx)));
  RC_ASSERT(encloses_ld(tanh(Interval(x)), std::tanh(lx)));
  if (x > 0) {
    RC_ASSERT(encloses_ld(log(Interval(x)), std::log(lx)));
    RC_ASSERT(encloses_ld(sqrt(Interval(x)), std::sqrt(lx)));
  }
  const double y = test::draw_real(1, 2);
  const double z = test::draw_real(1, 2);
  RC_ASSERT(encloses_ld(Interval(y) + Interval(z), static_cast<long double>(y) + z));
  RC_ASSERT(encloses_ld(Interval(y) - Interval(z), static_cast<long double>(y) - z));
  RC_ASSERT(encloses_ld(Interval(y) / Interval(z), static_cast<long double>(y) / z));
  // A box's image contains the image of each of its points.
  const Interval box(std::min(y, z), std::max(y, z));
  const double inside = test::draw_real(box.lower(), box.upper());
  RC_ASSERT(encloses(sin(box) * exp(box) / box, std::sin(inside) * std::exp(inside) / inside));
}

} // namespace
// A value computed in another order may round beside an exact enclosure by the tolerance, scaled by
// the value or by the size of the terms it sums, and by nothing else.
TEST(Interval, EnclosesRoundedAllowsRoundingOnly) {
  const Tolerance tol = default_tolerance(CheckKind::derivative);
  EXPECT_TRUE(encloses_rounded(Interval(1.0), 0.9999999999999999, tol));
  EXPECT_FALSE(encloses_rounded(Interval(1.0), 1.0 - 1e-6, tol));
  // after cancellation: terms of size 1e3 leave an error far above atol beside the exact 0
  EXPECT_FALSE(encloses_rounded(Interval(0.0), 1e-8, tol));
  EXPECT_TRUE(encloses_rounded(Interval(0.0), 1e-8, tol, 1e3));
  EXPECT_FALSE(encloses_rounded(Interval(0.0), 1e-3, tol, 1e3));
  EXPECT_FALSE(encloses_rounded(Interval(0.0), 1e-3, tol, std::numeric_limits<double>::infinity()));
}

} // namespace adsem::model::interval_test
