// Probing: the dot-product test and extensional comparison of model values.
#include "semantics/core/jacobian.hpp"
#include "semantics/core/linear_maps.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/core/pushforward.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace adsem::model::probe_test {
namespace {

using V = Value<double>;

TEST(DotProductTest, HoldsForJAndItsTranspose) {
  std::mt19937_64 rng(7);
  const Eigen::MatrixXd j = Eigen::MatrixXd::NullaryExpr(
      3, 4, [&] { return std::uniform_real_distribution<double>(-1, 1)(rng); });
  const DotProductReport report = dot_product_test(
      [&](const Eigen::VectorXd& v) { return Eigen::VectorXd(j * v); },
      [&](const Eigen::VectorXd& u) { return Eigen::VectorXd(j.transpose() * u); }, 4, 3, 1234);
  EXPECT_TRUE(report.passed);
  EXPECT_EQ(report.probes, 3);
  EXPECT_LE(report.worst_ratio, 1.0);
}

TEST(DotProductTest, DetectsJInPlaceOfItsTranspose) {
  Eigen::Matrix3d j;
  j << 1, 2, 0, -1, 3, 4, 0.5, 0, 2; // not symmetric
  const DotProductReport report = dot_product_test(
      [&](const Eigen::VectorXd& v) { return Eigen::VectorXd(j * v); },
      [&](const Eigen::VectorXd& u) { return Eigen::VectorXd(j * u); }, 3, 3, 1234);
  EXPECT_FALSE(report.passed);
  EXPECT_GT(report.worst_ratio, 1e3);
  EXPECT_NE(report.worst_forward, report.worst_reverse);
}

TEST(DotProductTest, ModelJvpAgainstModelVjp) {
  const VectorFunction<Dual<double>> f = [](std::span<const Dual<double>> v) {
    return std::vector<Dual<double>>{v[0] * sin(v[1]), exp(v[0]) * v[1] * v[1], v[1] / v[0]};
  };
  const Eigen::Vector2d x(0.8, -0.3);
  const DotProductReport report =
      dot_product_test([&](const Eigen::VectorXd& v) { return jvp(f, x, v); },
                       [&](const Eigen::VectorXd& u) { return vjp(f, x, u); }, 2, 3, 99, 5);
  EXPECT_TRUE(report.passed) << report.worst_ratio;
  EXPECT_EQ(report.probes, 5);
}

TEST(Probing, RandomValuesAreSeededAndTyped) {
  const ModelType t = ModelType::tuple({ModelType::real(),
                                        ModelType::function(ModelType::real(), ModelType::real()),
                                        ModelType::sum({ModelType::real(), ModelType::unit()})});
  std::mt19937_64 a(5), b(5);
  const V x = random_value(t, a), y = random_value(t, b);
  EXPECT_EQ(x.first().real().primal(), y.first().real().primal());
  EXPECT_EQ(x.item(1)(V(0.25)).real().primal(), y.item(1)(V(0.25)).real().primal());
  EXPECT_GE(x.first().real().primal(), -2.0);
  EXPECT_LE(x.first().real().primal(), 2.0);
}

TEST(Probing, ComparesFunctionsExtensionally) {
  const ModelType r_to_r = ModelType::function(ModelType::real(), ModelType::real());
  const V sin_plus_cos = V::function([](const V& x) { return V(sin(x.real()) + cos(x.real())); });
  const V cos_plus_sin = V::function([](const V& x) { return V(cos(x.real()) + sin(x.real())); });
  const ProbeReport same = compare_by_probing(sin_plus_cos, cos_plus_sin, r_to_r, 11, 4);
  EXPECT_TRUE(same.equal);
  EXPECT_EQ(same.probes, 4);
  EXPECT_EQ(same.comparisons, 4);
  const V shifted = V::function([](const V& x) { return V(sin(x.real() + 1e-3) + cos(x.real())); });
  const ProbeReport different = compare_by_probing(sin_plus_cos, shifted, r_to_r, 11, 4);
  EXPECT_FALSE(different.equal);
  EXPECT_GT(different.worst_difference, 1e-5);
  EXPECT_EQ(different.worst_place.substr(0, 4), "@arg");
}

TEST(Probing, HigherOrderFunctions) {
  // (R -> R) -> R: f ↦ f(2) against itself and against f ↦ f(2.001).
  const ModelType t = ModelType::function(ModelType::function(ModelType::real(), ModelType::real()),
                                          ModelType::real());
  const V at2 = V::function([](const V& f) { return f(V(2.0)); });
  const V at2_again = V::function([](const V& f) { return f(V(1.0 + 1.0)); });
  const V at2001 = V::function([](const V& f) { return f(V(2.001)); });
  EXPECT_TRUE(compare_by_probing(at2, at2_again, t, 3).equal);
  const ProbeReport report = compare_by_probing(at2, at2001, t, 3);
  EXPECT_FALSE(report.equal);
  EXPECT_EQ(report.probes, 3);
}

TEST(LinearMaps, CovectorsAndMatricesRoundTrip) {
  const Eigen::Vector3d c(1.0, -2.0, 0.5);
  const V shape = V::pair(0.0, V::pair(0.0, 0.0));
  const V phi = covector<double>(c);
  EXPECT_EQ(phi(V::pair(1.0, V::pair(1.0, 2.0))).real().primal(), 0.0);
  EXPECT_EQ(covector_coefficients(phi, shape), c);
  Eigen::MatrixXd a(2, 3);
  a << 1, 2, 3, 4, 5, 6;
  const V lin = linear_map<double>(a, V::pair(0.0, 0.0));
  EXPECT_EQ(matrix_of(lin, shape), a);
  // The matrix of the pushforward's tangent map is the Jacobian.
  const V f = V::function([](const V& p) {
    const Dual<double> x = p.first().real(), y = p.second().first().real();
    return V::pair(V(x * y), V(sin(x)));
  });
  const V point = V::pair(0.3, V::pair(2.0, 7.0));
  const DiffContext ctx;
  const V tangent_map =
      V::function([&](const V& v) { return directional_derivative(f, point, v, ctx); });
  EXPECT_TRUE(matrix_of(tangent_map, shape).isApprox(jacobian(f, point, ctx), 1e-15));
}

} // namespace
} // namespace adsem::model::probe_test
