// The efficiency claim (§7.4) on the program families, printed as a table (docs/calculi/
// delta-reverse.md quotes it), and the negative controls (P18).
#include <iostream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "properties/delta_reverse/cost_properties.hpp"

namespace adsem::delta_reverse::cost_test {
namespace {

TEST(DeltaReverseCost, RatiosAreBoundedOnGrowingFamilies) {
  struct Family {
    const char* name;
    std::string (*make)(int);
    std::vector<int> sizes;
    bool one_input;
  };
  const std::vector<Family> families = {
      {"B1 halved doubling chain", halved_doubling_chain, {16, 64, 256, 1024}, true},
      {"B2 sum chain", sum_chain, {8, 32, 128, 512}, false},
      {"B3 twice tower", twice_tower, {3, 5, 7, 9}, true}};
  for (const Family& f : families) {
    double lo = 1e300, hi = 0;
    for (const int n : f.sizes) {
      const CostSample c =
          measure(f.make(n),
                  f.one_input ? std::vector<double>{0.75}
                              : std::vector<double>(static_cast<std::size_t>(n), 0.75),
                  false, 50'000'000);
      const double ratio = static_cast<double>(c.drev_steps) / c.primal_steps;
      std::cout << fmt::format("{:26} n={:5}  primal {:7}  Drev {:8}  ratio {:6.3f}  bindings {:5} "
                               "(= {} real prim calls)  nodes {:6}  eval {:6}  sweep {:6}\n",
                               f.name, n, c.primal_steps, c.drev_steps, ratio, c.bindings,
                               c.real_prim_calls, c.delta_nodes, c.eval_visits, c.sweep_nodes);
      EXPECT_EQ(c.bindings, c.real_prim_calls);
      EXPECT_LE(c.eval_visits, c.delta_nodes + c.bindings + 8);
      lo = std::min(lo, ratio);
      hi = std::max(hi, ratio);
    }
    EXPECT_LT(hi, 1.5 * lo) << f.name;
    EXPECT_LT(hi, 16.0) << f.name;
  }
}

TEST(DeltaReverseCost, Reverse2IsExponentialAndReverse1Quadratic) {
  for (const int k : {3, 6, 9, 12, 15}) {
    const CostSample c = measure(doubling_chain(k), {1.5}, true, 50'000'000);
    std::cout << fmt::format("doubling chain k={:2}: primal {:4} steps, R eval {:3} visits, R2 "
                             "eval_2 {:6} visits\n",
                             k, c.primal_steps, c.eval_visits, c.eval2_visits);
    EXPECT_EQ(c.eval2_visits, (2L << k) - 1);
    EXPECT_EQ(c.eval_visits, 4L * k + 1);
  }
  long previous = 0;
  for (const int a : {8, 16, 32, 64}) {
    const CostSample c = measure(
        sum_chain(a), std::vector<double>(static_cast<std::size_t>(a), 0.5), true, 50'000'000);
    std::cout << fmt::format("sum chain a={:3}: R1 {:6} scalar ops, R eval {:4} visits\n", a,
                             c.dense_flops, c.eval_visits);
    EXPECT_EQ(c.dense_flops, static_cast<long>(a) * (a - 1) + static_cast<long>(a) * a);
    if (previous > 0) {
      EXPECT_GT(c.dense_flops, 3 * previous);
    }
    previous = c.dense_flops;
  }
}

} // namespace
} // namespace adsem::delta_reverse::cost_test
