// The finite-difference oracle: its error on known functions stays below the stated bound.
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/jacobian.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace adsem::model::finite_difference_test {
namespace {

// The stated accuracy of fd_derivative with the default step, for the well-scaled functions
// below: |fd - f'| <= 1e-10 · (|f(x)| + |f'(x)| + 1). (Observed: at most 1e-11 · that scale,
// for sin at 7 where h = 0.04; 1e-13 or less for |x| <= 2.5.)
constexpr double fd_bound = 1e-10;

struct Known {
  const char* name;
  double (*f)(double);
  double (*df)(double);
};

double power7(double x) {
  return std::pow(x, 7);
}
double dpower7(double x) {
  return 7 * std::pow(x, 6);
}
double sine(double x) {
  return std::sin(x);
}
double cosine(double x) {
  return std::cos(x);
}
double exponential(double x) {
  return std::exp(x);
}

TEST(FiniteDifference, StepAndStencil) {
  EXPECT_NEAR(fd_relative_step(), std::pow(std::numeric_limits<double>::epsilon(), 1.0 / 7.0),
              1e-18);
  EXPECT_EQ(fd_step(0.5), fd_relative_step());
  EXPECT_EQ(fd_step(-10.0), 10 * fd_relative_step());
  EXPECT_DOUBLE_EQ(fd_weights[0] + 2 * fd_weights[1] + 3 * fd_weights[2], 0.5); // Σ k w_k = 1/2
  // Sixth order: exact on polynomials of degree <= 6 (up to rounding).
  const auto p6 = [](double x) { return std::pow(x, 6) - 2 * x * x * x + x; };
  EXPECT_NEAR(fd_derivative(p6, 1.1), 6 * std::pow(1.1, 5) - 6 * 1.1 * 1.1 + 1, 1e-11);
}

TEST(FiniteDifference, ErrorOnKnownFunctionsIsBelowTheStatedBound) {
  const Known functions[] = {
      {"sin", sine, cosine}, {"exp", exponential, exponential}, {"x^7", power7, dpower7}};
  for (const Known& k : functions) {
    for (const double x : {-3.0, -1.0, -0.2, 0.0, 0.4, 1.0, 2.5, 7.0}) {
      if (std::string(k.name) == "exp" && x > 3) continue; // keep exp well scaled
      const double estimate = fd_derivative(k.f, x);
      const double exact = k.df(x);
      const double scale = std::abs(k.f(x)) + std::abs(exact) + 1;
      EXPECT_LE(std::abs(estimate - exact), fd_bound * scale)
          << k.name << " at " << x << ": " << estimate << " vs " << exact;
    }
  }
}

TEST(FiniteDifference, JacobianAndGradient) {
  // f(x, y) = (x·y, sin x + y²) against the exact Jacobian.
  const RealVectorFunction f = [](const Eigen::VectorXd& v) {
    return Eigen::Vector2d(v(0) * v(1), std::sin(v(0)) + v(1) * v(1)).eval();
  };
  const Eigen::Vector2d x(0.3, -1.2);
  Eigen::Matrix2d exact;
  exact << -1.2, 0.3, std::cos(0.3), -2.4;
  const Eigen::MatrixXd estimate = fd_jacobian(f, x);
  EXPECT_LE((estimate - exact).cwiseAbs().maxCoeff(), 1e-10);
  const Eigen::VectorXd g =
      fd_gradient([](const Eigen::VectorXd& v) { return v.squaredNorm(); }, x);
  EXPECT_LE((g - 2 * x).cwiseAbs().maxCoeff(), 1e-10);
  const Eigen::VectorXd dir = fd_directional(f, x, Eigen::Vector2d(1.0, 2.0));
  EXPECT_LE((dir - exact * Eigen::Vector2d(1.0, 2.0)).cwiseAbs().maxCoeff(), 1e-10);
}

TEST(FiniteDifference, TangentOfAGroundModelFunction) {
  using V = Value<double>;
  const V f = V::function([](const V& p) {
    return V::pair(V(p.first().real() * p.second().real()), V(exp(p.first().real())));
  });
  const V t = fd_tangent(f, V::pair(1.0, 2.0), V::pair(1.0, 0.0));
  EXPECT_NEAR(t.first().real().primal(), 2.0, 1e-10);
  EXPECT_NEAR(t.second().real().primal(), std::exp(1.0), 1e-10);
}

} // namespace
} // namespace adsem::model::finite_difference_test
