// Exact Jacobians, JVPs, VJPs and Hessians of model functions.
#include "semantics/core/jacobian.hpp"
#include "semantics/core/pushforward.hpp"
#include "support.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace adsem::model::jacobian_test {
namespace {

using D = Dual<double>;

// f(x, y) = (x·y, sin x + y²), J = [[y, x], [cos x, 2y]].
std::vector<D> f(std::span<const D> v) {
  return {v[0] * v[1], sin(v[0]) + v[1] * v[1]};
}

TEST(Jacobian, ExactAtAPoint) {
  const Eigen::Vector2d x(0.3, -1.2);
  Eigen::Matrix2d expected;
  expected << -1.2, 0.3, std::cos(0.3), -2.4;
  const Eigen::MatrixXd j = jacobian(f, x);
  EXPECT_TRUE(j.isApprox(expected, 1e-15)) << j;
  const Eigen::Vector2d v(2.0, -1.0), w(0.5, 3.0);
  EXPECT_TRUE(jvp(f, x, v).isApprox(expected * v, 1e-15));
  EXPECT_TRUE(vjp(f, x, w).isApprox(expected.transpose() * w, 1e-15));
  const VectorFunction<AutoDiff> g = [](std::span<const AutoDiff> v) {
    return std::vector<AutoDiff>{v[0] * v[1], sin(v[0]) + v[1] * v[1]};
  };
  EXPECT_TRUE(jacobian_autodiff(g, x).isApprox(expected, 1e-15));
}

TEST(Jacobian, GradientAndHessian) {
  // h(x, y) = x² y + sin y: ∇ = (2xy, x² + cos y), H = [[2y, 2x], [2x, -sin y]].
  const VectorFunction<D> h = [](std::span<const D> v) {
    return std::vector<D>{v[0] * v[0] * v[1] + sin(v[1])};
  };
  const Eigen::Vector2d x(1.5, 0.4);
  const Eigen::VectorXd g = gradient(h, x);
  EXPECT_NEAR(g(0), 2 * 1.5 * 0.4, 1e-15);
  EXPECT_NEAR(g(1), 1.5 * 1.5 + std::cos(0.4), 1e-15);
  const Eigen::MatrixXd hess = hessian(h, x);
  EXPECT_NEAR(hess(0, 0), 0.8, 1e-15);
  EXPECT_NEAR(hess(0, 1), 3.0, 1e-15);
  EXPECT_NEAR(hess(1, 0), 3.0, 1e-15);
  EXPECT_NEAR(hess(1, 1), -std::sin(0.4), 1e-15);
  EXPECT_THROW((void)gradient(f, x), AdsemError); // two results
}

TEST(Jacobian, OfAModelFunctionValueBetweenGroundTypes) {
  // λ(p, q). (q·p, (p + q, unit)) at (2, 5): J = [[5, 2], [1, 1]].
  using V = Value<double>;
  const V fn = V::function([](const V& pq) {
    const D p = pq.first().real(), q = pq.second().real();
    return V::pair(V(q * p), V::pair(V(p + q), V()));
  });
  const Eigen::MatrixXd j = jacobian(fn, V::pair(2.0, 5.0));
  EXPECT_EQ(j, (Eigen::MatrixXd(2, 2) << 5, 2, 1, 1).finished());
}

TEST(Jacobian, NestedJacobiansDoNotConfusePerturbations) {
  // F(x) = x · (∂/∂y (x·y))|_{y=1} = x², so F'(x) = 2x: the inner Jacobian runs inside the outer
  // one, each with its own tag (abadi-plotkin §5.4 "fresh tags per rd").
  const DiffContext ctx;
  const VectorFunction<D> outer = [ctx](std::span<const D> x) {
    const D xx = x[0];
    const VectorFunction<D> inner = [xx](std::span<const D> y) {
      return std::vector<D>{xx * y[0]};
    };
    const std::vector<D> one{D(1.0)};
    const std::vector<D> column = jacobian_column_dual<double>(inner, one, 0, ctx);
    return std::vector<D>{xx * column[0]};
  };
  EXPECT_EQ(jacobian(outer, Eigen::VectorXd::Constant(1, 3.0), ctx)(0, 0), 6.0);
  // With one ε for everything the inner derivative sees the outer perturbation: 2x + x·1 ≠ 2x.
  const DiffContext confused(PerturbationMode::untagged);
  const VectorFunction<D> outer_confused = [confused](std::span<const D> x) {
    const D xx = x[0];
    const VectorFunction<D> inner = [xx](std::span<const D> y) {
      return std::vector<D>{xx * y[0]};
    };
    const std::vector<D> one{D(1.0)};
    return std::vector<D>{xx * jacobian_column_dual<double>(inner, one, 0, confused)[0]};
  };
  EXPECT_NE(jacobian(outer_confused, Eigen::VectorXd::Constant(1, 3.0), confused)(0, 0), 6.0);
}

TEST(Jacobian, VjpKeepsOuterPerturbations) {
  // abadi-plotkin: rd of rd. With x perturbed by an outer tag, vjp_dual returns the cotangent
  // as a dual whose ε-coefficient is the second derivative.
  const VectorFunction<D> cube = [](std::span<const D> v) {
    return std::vector<D>{v[0] * v[0] * v[0]};
  };
  const Tag outer = 99;
  const std::vector<D> x{D::perturbation(2.0, outer, 1.0)};
  const std::vector<D> w{D(1.0)};
  const std::vector<D> g = vjp_dual<double>(cube, x, w, DiffContext());
  EXPECT_EQ(g[0].primal(), 12.0);             // 3x²
  EXPECT_EQ(g[0].coefficient({outer}), 12.0); // 6x
}

RC_GTEST_PROP(JacobianProperties, JvpAndVjpAreTheJacobianActions, ()) {
  const Eigen::VectorXd x = test::as_vector(test::draw_reals(2, -2, 2));
  const Eigen::VectorXd v = test::as_vector(test::draw_reals(2, -1, 1));
  const Eigen::VectorXd w = test::as_vector(test::draw_reals(2, -1, 1));
  const Eigen::MatrixXd j = jacobian(f, x);
  RC_ASSERT((jvp(f, x, v) - j * v).norm() <= 1e-14 * (1 + v.norm() * j.norm()));
  RC_ASSERT((vjp(f, x, w) - j.transpose() * w).norm() <= 1e-14 * (1 + w.norm() * j.norm()));
}

// perturb_column makes x_i + 0·ε and x_i + 1·ε directly for a constant x_i (op_r's points): the
// same coefficients, bit for bit, as the products and the sum it stands for, on signed zeros,
// infinities and NaN as on ordinary reals; and with an outer perturbation the sum itself.
TEST(Jacobian, PerturbedColumnIsTheSumBitForBit) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const DiffContext context;
  const Tag outer = context.fresh_tag();
  const std::vector<D> x = {D(-0.0),
                            D(0.0),
                            D(1.5),
                            D(-inf),
                            D(nan),
                            D(-2.0),
                            D::perturbation(3.0, outer, -0.0),
                            D::perturbation(-0.0, outer, 2.0)};
  const auto same_bits = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (std::size_t j = 0; j < x.size(); ++j) {
    const Tag e = context.fresh_tag();
    std::vector<D> made;
    perturb_column<double>(std::span<const D>(x), j, e, made);
    const D epsilon = D::perturbation(0.0, e, 1.0);
    const D off = D(0.0) * epsilon, on = D(1.0) * epsilon;
    ASSERT_EQ(made.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const D sum = x[i] + (i == j ? on : off);
      const D& expected = adds_nothing(i == j ? on : off, x[i]) ? x[i] : sum;
      ASSERT_EQ(made[i].tags(), expected.tags()) << "column " << j << ", coordinate " << i;
      const auto a = made[i].coefficients(), b = expected.coefficients();
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t k = 0; k < a.size(); ++k)
        EXPECT_TRUE(same_bits(a[k], b[k]))
            << "column " << j << ", coordinate " << i << ": " << a[k] << " vs " << b[k];
    }
  }
}

} // namespace
} // namespace adsem::model::jacobian_test
