// op_r^k of table entries (semantics/core/reverse_derivative.hpp) against the closed forms of
// abadi-plotkin spec §7.2, with exact domains, and dot_product_primitive.
#include <gtest/gtest.h>

#include "semantics/core/model_errors.hpp"
#include "semantics/core/reverse_derivative.hpp"

namespace adsem::model::reverse_derivative_test {
namespace {

std::vector<double> rev(const char* name, int order, std::vector<double> x) {
  return apply_reverse(primitives().at(name), order, std::span<const double>(x));
}

TEST(ReverseDerivative, ClosedFormsOfSpec72) {
  const double a = 1.5, b = -2, w = 0.5, u = 3, v = -1.25;
  // mul_r(<<a, b>, w>) = <w b, w a>
  EXPECT_EQ(rev("mul", 1, {a, b, w}), (std::vector<double>{w * b, w * a}));
  // mul_r_r(<<<a, b>, w>, <u, v>>) = <<v w, u w>, u b + v a>
  const std::vector<double> rr = rev("mul", 2, {a, b, w, u, v});
  ASSERT_EQ(rr.size(), 3u);
  EXPECT_DOUBLE_EQ(rr[0], v * w);
  EXPECT_DOUBLE_EQ(rr[1], u * w);
  EXPECT_DOUBLE_EQ(rr[2], u * b + v * a);
  // log_r_r(<<a, w>, c>) = <-c w / a^2, c / a>
  const std::vector<double> lrr = rev("log", 2, {a, w, u});
  EXPECT_DOUBLE_EQ(lrr[0], -u * w / (a * a));
  EXPECT_DOUBLE_EQ(lrr[1], u / a);
  // sin_r_r(<<a, w>, c>) = <-c w sin a, c cos a>
  const std::vector<double> srr = rev("sin", 2, {a, w, u});
  EXPECT_NEAR(srr[0], -u * w * std::sin(a), 1e-15);
  EXPECT_NEAR(srr[1], u * std::cos(a), 1e-15);
  EXPECT_EQ(reverse_sizes(primitives().at("mul"), 2), (std::pair<std::size_t, std::size_t>{5, 3}));
}

TEST(ReverseDerivative, DomainIsTheBaseDomainTimesCotangents) {
  EXPECT_THROW(rev("log", 1, {-1, 1}), Undefined);         // not -1 (spec §7.2)
  EXPECT_THROW(rev("log", 3, {0, 1, 1, 1, 1}), Undefined); // log_r_r_r : real^5 -> real^3
  EXPECT_THROW(rev("div", 1, {1, 0, 1}), Undefined);
  EXPECT_EQ(rev("div", 1, {1, 2, 1}), (std::vector<double>{0.5, -0.25}));
}

TEST(ReverseDerivative, DotProductOfAnySize) {
  const Primitive d3 = dot_product_primitive(3, "dprod3");
  EXPECT_EQ(d3.arity(), 6u);
  EXPECT_EQ(d3.apply<double>(std::vector<double>{1, 2, 3, 4, 5, 6}), std::vector<double>{32});
  const std::vector<double> x{1, 2, 3, 4, 5, 6, 2};
  EXPECT_EQ(apply_reverse(d3, 1, std::span<const double>(x)),
            (std::vector<double>{8, 10, 12, 2, 4, 6}));
  EXPECT_EQ(primitives().at("dprod2").apply<double>(std::vector<double>{1, 2, 3, 4}),
            std::vector<double>{11});
}

} // namespace
} // namespace adsem::model::reverse_derivative_test
