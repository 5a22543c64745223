// The one tolerance policy: |a - b| <= max(rtol (|a| + |b|) / 2, atol).
#include "semantics/core/tolerance.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace adsem::tolerance_test {
namespace {

TEST(Tolerance, Policy) {
  const Tolerance tol{1e-6, 1e-9};
  EXPECT_TRUE(within_tolerance(1.0, 1.0 + 0.9e-6, tol));
  EXPECT_FALSE(within_tolerance(1.0, 1.0 + 1.1e-6, tol));
  EXPECT_TRUE(within_tolerance(0.0, 0.9e-9, tol)); // absolute floor near zero
  EXPECT_FALSE(within_tolerance(0.0, 1.1e-9, tol));
  EXPECT_TRUE(within_tolerance(1e6, 1e6 + 0.9, tol)); // relative at large scale
  EXPECT_FALSE(within_tolerance(1e6, 1e6 + 1.1, tol));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(within_tolerance(nan, nan, tol));
  EXPECT_TRUE(within_tolerance(inf, inf, tol));
  EXPECT_FALSE(within_tolerance(inf, -inf, tol));
  EXPECT_FALSE(within_tolerance(inf, 1e308, tol));
}

TEST(Tolerance, RatioAgreesWithThePolicy) {
  const Tolerance tol{1e-6, 1e-9};
  EXPECT_EQ(tolerance_ratio(2.0, 2.0, tol), 0.0);
  EXPECT_NEAR(tolerance_ratio(1.0, 1.0 + 0.5e-6, tol), 0.5, 1e-6);
  for (const double b : {1.0 + 1e-7, 1.0 + 2e-6, 0.0, -1.0})
    EXPECT_EQ(tolerance_ratio(1.0, b, tol) <= 1, within_tolerance(1.0, b, tol)) << b;
  EXPECT_TRUE(std::isinf(tolerance_ratio(std::nan(""), 1.0, tol)));
}

TEST(Tolerance, DefaultsPerKindAndNames) {
  // Exact paths are compared more tightly than derivatives, derivatives more tightly than FD.
  EXPECT_LT(default_tolerance(CheckKind::exact_value).rtol,
            default_tolerance(CheckKind::derivative).rtol);
  EXPECT_LT(default_tolerance(CheckKind::derivative).rtol,
            default_tolerance(CheckKind::finite_difference).rtol);
  EXPECT_EQ(default_tolerance(CheckKind::finite_difference).rtol, 1e-5);
  for (const CheckKind kind : all_check_kinds)
    EXPECT_EQ(check_kind_from_string(to_string(kind)), kind);
  EXPECT_EQ(to_string(CheckKind::finite_difference), "finite-difference");
  EXPECT_FALSE(check_kind_from_string("no-such-kind").has_value());
}

// A dot product is compared relative to the magnitude of its terms (Σ|a_i b_i|), not to its
// result: two orders of summing exp(18)-sized terms that cancel differ by a few of their ulps.
TEST(Tolerance, SumsScaleWithTheirTerms) {
  const Tolerance tol = default_tolerance(CheckKind::derivative);
  const std::vector<double> a{6.565996913733051e7, -6.565996913733051e7}, b{18.0, 18.0};
  const SumWithMagnitude d = dot_with_magnitude(a, b);
  EXPECT_EQ(d.value, 0.0);
  EXPECT_DOUBLE_EQ(d.magnitude, 36.0 * 6.565996913733051e7);
  const SumWithMagnitude other{-5.960464477539063e-08, d.magnitude};
  EXPECT_FALSE(within_tolerance(d.value, other.value, tol)); // scaled by the results: a false alarm
  EXPECT_TRUE(within_tolerance(d, other, tol));
  // a real discrepancy among terms of size 1e3 is still one
  EXPECT_FALSE(within_tolerance(SumWithMagnitude{0.0, 1e3}, SumWithMagnitude{1e-3, 1e3}, tol));
  EXPECT_TRUE(within_tolerance(SumWithMagnitude{0.0, 1e3}, SumWithMagnitude{0.9e-4, 1e3}, tol));
  // a magnitude below the value is lifted to it (one term: the scalar policy)
  EXPECT_TRUE(within_tolerance(SumWithMagnitude{1.0, 0.0}, SumWithMagnitude{1.0 + 0.9e-7, 0}, tol));
  EXPECT_FALSE(
      within_tolerance(SumWithMagnitude{1.0, 0.0}, SumWithMagnitude{1.0 + 1.1e-7, 0}, tol));
  // a non-finite magnitude scales nothing; NaN never agrees
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(within_tolerance(SumWithMagnitude{0.0, inf}, SumWithMagnitude{1.0, inf}, tol));
  EXPECT_FALSE(
      within_tolerance(SumWithMagnitude{std::nan(""), 1.0}, SumWithMagnitude{0, 1.0}, tol));
}

} // namespace
} // namespace adsem::tolerance_test
