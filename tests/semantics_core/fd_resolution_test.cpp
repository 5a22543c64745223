// The finite-difference estimate's bound on its own error, and how a comparison weighs it
// (finite_difference.hpp: fd_jacobian_estimate, resolve).
#include <gtest/gtest.h>

#include <cmath>

#include "semantics/core/finite_difference.hpp"

namespace adsem::model::fd_resolution_test {
namespace {

const Tolerance fd_tol = default_tolerance(CheckKind::finite_difference);

// The bound must hold: |J(h) - J| <= error, where the stencil is in its asymptotic regime (the
// bound is then about twice the error) and where it is not yet (near a pole).
void expect_bound_holds(const std::function<double(double)>& f, double x, double exact) {
  const FdDerivativeEstimate e = fd_derivative_estimate(f, x);
  EXPECT_LE(std::abs(e.derivative - exact), e.error) << "at x = " << x;
}

// sin(y² / (x + y)) in y at x = -1.5, y = 1.25, 0.25 from the pole: J(h) is off by 3.63e-4 and
// |J(h) - J(h/2)| is 63/64 of that (3.58e-4): the old estimate was below the error it estimated.
TEST(FdErrorBound, HoldsWhereTheHalvedDifferenceIsJustBelowTheError) {
  const auto f = [](double y) { return std::sin(y * y / (-1.5 + y)); };
  const double s = -1.5 + 1.25;
  const double exact = std::cos(1.25 * 1.25 / s) * (2 * 1.25 / s - 1.25 * 1.25 / (s * s));
  expect_bound_holds(f, 1.25, exact);
}

// Closer to the pole the stencil leaves its asymptotic regime (J(h/2) - J(h/4) is more than 1/64
// of J(h) - J(h/2)); the bound must still cover the error.
TEST(FdErrorBound, HoldsOutsideTheAsymptoticRegimeNearAPole) {
  for (const double d : {0.06, 0.05, 0.04, 0.035, 0.03}) {
    const auto f = [](double x) { return 1.0 / x; };
    expect_bound_holds(f, d, -1.0 / (d * d));
    const auto g = [](double x) { return std::sin(1.0 / x); };
    expect_bound_holds(g, d, -std::cos(1.0 / d) / (d * d));
  }
}

// Found by a soak (model/jacobian-matches-finite-differences, (x0, sin(exp(mul(-4, x0)))) at
// (-3, -3)): the step 0.017 aliases an oscillation of period 1e-5; J(h), J(h/2), J(h/4) are all
// noise, 85.5 against the exact -83354. The pairs do not shrink 64-fold: no bound, no verdict.
TEST(FdErrorBound, NoVerdictWhereTheStepAliasesAnOscillation) {
  const auto f = [](double t) { return std::sin(std::exp(-4 * t)); };
  const double exact = -4 * std::exp(12.0) * std::cos(std::exp(12.0));
  const FdDerivativeEstimate e = fd_derivative_estimate(f, -3.0);
  EXPECT_LE(std::abs(e.derivative - exact), e.error);
  EXPECT_EQ(resolve(e.derivative, e.error, exact, fd_tol), Resolution::unresolved);
}

// On smooth functions the bound stays far below the tolerance (no spurious fd-unstable).
TEST(FdErrorBound, SmallOnSmoothFunctions) {
  for (double x = -3; x <= 7; x += 0.37) {
    const FdDerivativeEstimate e = fd_derivative_estimate([](double t) { return std::exp(t); }, x);
    EXPECT_LE(e.error, 1e-3 * fd_tol.rtol * std::exp(x)) << x;
    const FdDerivativeEstimate s = fd_derivative_estimate([](double t) { return std::sin(t); }, x);
    EXPECT_LE(s.error, 1e-3 * fd_tol.atol) << x;
  }
}

TEST(FdResolution, AgreesDisagreesOrCannotTell) {
  // bound = max(1e-5 · 1, 1e-7) = 1e-5 around 1
  EXPECT_EQ(resolve(1.0, 1e-9, 1.0 + 5e-6, fd_tol), Resolution::agree);
  EXPECT_EQ(resolve(1.0, 1e-9, 1.0 + 5e-5, fd_tol), Resolution::disagree);
  // the gap is within tolerance but the estimate's error could put the truth outside
  EXPECT_EQ(resolve(1.0, 8e-6, 1.0 + 5e-6, fd_tol), Resolution::unresolved);
  // the gap exceeds the tolerance by less than the estimate's error
  EXPECT_EQ(resolve(1.0, 8e-6, 1.0 + 1.5e-5, fd_tol), Resolution::unresolved);
  // near zero the bound is atol: the zero derivative against an estimate off by 1.2e-7 whose
  // error is at least that cannot be decided
  EXPECT_EQ(resolve(1.16e-7, 2e-7, 0.0, fd_tol), Resolution::unresolved);
  EXPECT_EQ(resolve(1.16e-7, 1e-9, 0.0, fd_tol), Resolution::disagree);
  // an estimate less precise than the tolerance decides nothing, however far the value (found by
  // a soak: sin(sin(sin(exp(-4x)))) at x = -1.87, an aliased oscillation whose three stencils
  // happened to shrink as if converging: FD 56.0 with a bound of 1334, the exact -5721)
  EXPECT_EQ(resolve(55.986711273159514, 1333.923641830161, -5721.13245860308, fd_tol),
            Resolution::unresolved);
  // nor does a huge value lend a noisy estimate its tolerance (found by a soak: sin(exp(exp(3 -
  // x))) at x = -1.79, whose samples are sin of numbers near 1e52, pure rounding noise: FD -87.5
  // with a bound of 727 against the exact 1.5e54, whose tolerance is 7.5e48)
  EXPECT_EQ(resolve(-87.53913814719574, 726.6764304738567, 1.4954447063155375e+54, fd_tol),
            Resolution::unresolved);
  // no estimate, or a non-finite value against a finite estimate
  EXPECT_EQ(resolve(NAN, 0.0, 1.0, fd_tol), Resolution::unresolved);
  EXPECT_EQ(resolve(1.0, INFINITY, 1.0, fd_tol), Resolution::unresolved);
  EXPECT_EQ(resolve(1.0, 0.0, NAN, fd_tol), Resolution::disagree);
}

} // namespace
} // namespace adsem::model::fd_resolution_test
