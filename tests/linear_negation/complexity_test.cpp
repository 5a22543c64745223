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

// P11's regression guard (seed 002 Lemma 11, L519; the sum ⊕ of L479-481): bp of the wide sum
// x1 + … + xn has size O(n). ⊕ drops a summand 0, so each G_i keeps its one a; a plain + would
// keep the n − 1 zeros of every G_i, and the size would grow as n².
TEST(LinearNegationComplexity, BpOfTheWideSumHasLinearSize) {
  std::vector<long> sizes;
  for (const int n : {50, 100, 200, 400}) {
    std::vector<std::string> xs;
    Context gamma;
    std::string sum;
    for (int i = 1; i <= n; ++i) {
      xs.push_back("x" + std::to_string(i));
      gamma[xs.back()] = real_type();
      sum += (i > 1 ? " + " : "") + xs.back();
    }
    const Typed g = parse_elaborated(sum, Mode::source, gamma);
    Names names(g.term);
    const long size = size_of(backprop_graph(g.term, xs, "a", names));
    EXPECT_LE(size, 12 * (size_of(g.term) + n)) << "n = " << n; // the spec's constant, arity ≤ 2
    sizes.push_back(size);
  }
  for (std::size_t k = 1; k < sizes.size(); ++k) // doubling n about doubles |bp|
    EXPECT_LE(sizes[k], 2 * sizes[k - 1] + 16) << sizes[k - 1] << " then " << sizes[k];
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
