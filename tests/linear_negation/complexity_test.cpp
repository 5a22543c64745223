// Cor. 16 / Thm 15 (seed 002 L466, L562-566): the reduction steps of the gradient wrapper stay
// within a constant factor of the steps that evaluate the program, over growing members of the
// families of spec §8 (E6 first- and higher-order, nested primitives, E8 RNN); without (17)
// (S_bp minus linear factoring) the squaring chain blows up exponentially (spec §9 P1).
#include <gtest/gtest.h>

#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"

namespace adsem::linear_negation::complexity_test {
namespace {

struct Cost {
  long eval = 0;
  long grad = 0;
  double ratio = 0;
};

Cost cost_of(const std::string& text, double at, RuleSet rules = {}) {
  const RealFunction f = real_function(parse_elaborated(text, Mode::source));
  Term closed = f.body;
  std::vector<double> point(f.inputs.size(), at);
  for (const auto& x : f.inputs)
    closed = let(exp_binder(x, real_type()), closed, num(at));
  RunOptions o;
  o.rules = rules;
  o.fuel = 3'000'000;
  Cost c;
  c.eval = normalise(elaborate(closed).term, o).steps;
  c.grad = reduce_gradient(f.body, f.inputs, point, o).run.steps;
  c.ratio = static_cast<double>(c.grad) /
            static_cast<double>(c.eval + size_of(f.body) + static_cast<long>(f.inputs.size()));
  return c;
}

void expect_bounded(const std::function<std::string(int)>& family, double at, int largest = 64) {
  std::vector<double> ratios;
  for (int k = 4; k <= largest; k *= 2) {
    const Cost c = cost_of(family(k), at);
    std::printf("  k=%3d eval=%6ld grad=%7ld ratio=%.2f\n", k, c.eval, c.grad, c.ratio);
    ratios.push_back(c.ratio);
  }
  for (double r : ratios)
    EXPECT_LE(r, 40.0);
  // and the ratio does not grow: the largest member is within 1.5x of the second
  EXPECT_LE(ratios.back(), 1.5 * ratios.at(1));
}

TEST(LinearNegationComplexity, SquaringChainIsLinear) {
  expect_bounded(family::square_chain, 1.0);
}
TEST(LinearNegationComplexity, HigherOrderSquaringChainIsLinear) {
  expect_bounded(family::square_chain_higher_order, 1.0);
}
TEST(LinearNegationComplexity, NestedPrimitivesAreLinear) {
  expect_bounded(family::nested_chain, 0.5);
}
TEST(LinearNegationComplexity, RecurrentNetworkIsLinearInTheListLength) {
  expect_bounded(
      [](int n) { return family::rnn(std::vector<double>(static_cast<std::size_t>(n), 0.5)); }, 0.3,
      32);
}

TEST(LinearNegationComplexity, WithoutLinearFactoringTheChainBlowsUp) {
  RuleSet naive;
  naive.factoring = false;
  const long small = cost_of(family::square_chain(4), 1.0, naive).grad;
  const long large = cost_of(family::square_chain(8), 1.0, naive).grad;
  std::printf("  naive: k=4 %ld steps, k=8 %ld steps\n", small, large);
  EXPECT_GT(large, 6 * small); // 2^k growth, where S_bp grows by about 2x
}

} // namespace
} // namespace adsem::linear_negation::complexity_test
