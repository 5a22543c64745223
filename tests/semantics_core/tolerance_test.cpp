// The one tolerance policy: |a - b| <= max(rtol (|a| + |b|) / 2, atol).
#include "semantics/core/tolerance.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace adsem {
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

} // namespace
} // namespace adsem
