// The sparse numeral covectors (syntax/pullback/covector.hpp) must behave exactly as dense vectors
// of dim(σ) reals: the same entries, the same printed text, and every sum of rule N3 the same
// double, signed zeros and NaN included (spec §9 pitfall 4: "results are identical").
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "syntax/pullback/ast.hpp"
#include "syntax/pullback/covector.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback::covector_test {
namespace {

std::vector<double> random_dense(std::mt19937_64& rng, std::size_t n) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> pool{0.0, 0.0, 0.0, -0.0, 1.5, -2.25, 3.0, -3.0, 1e308, nan};
  std::vector<double> v(n);
  for (double& x : v)
    x = pool[rng() % pool.size()];
  return v;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i])) return false;
  return true;
}

TEST(PullbackCovector, KeepsEveryEntryButPositiveZero) {
  const std::vector<double> dense{0.0, -0.0, 2.0, 0.0, -1.0};
  const Covector c(dense);
  EXPECT_EQ(c.size(), 5u);
  EXPECT_EQ(c.entries().size(), 3u); // -0.0, 2, -1
  EXPECT_TRUE(same_bits(c.dense(), dense));
  EXPECT_TRUE(std::signbit(c[1]));
  EXPECT_EQ(c[2], 2.0);
  EXPECT_EQ(c[3], 0.0);
  EXPECT_EQ(c.window(1, 4).size(), 2u);
  EXPECT_EQ(print(covec(dense, real_power(5))), "[0, 0, 2, 0, -1]^*"); // number_text prints -0 as 0
}

TEST(PullbackCovector, SumsAndEqualityAreTheDenseOnes) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + rng() % 9;
    const std::vector<double> a = random_dense(rng, n), b = random_dense(rng, n);
    std::vector<double> sum(n);
    bool equal = true;
    for (std::size_t i = 0; i < n; ++i) {
      sum[i] = a[i] + b[i];
      equal = equal && a[i] == b[i];
    }
    const Covector s = Covector(a) + Covector(b);
    EXPECT_TRUE(same_bits(s.dense(), sum)) << "trial " << trial;
    EXPECT_EQ(Covector(a) == Covector(b), equal) << "trial " << trial;
    for (const Covector::Entry& e : s.entries())
      EXPECT_TRUE(Covector::stored(e.value)); // +0.0 never stored
  }
}

TEST(PullbackCovector, DimensionIsPartOfEquality) {
  EXPECT_FALSE(Covector(std::vector<double>{0.0}) == Covector(std::vector<double>{0.0, 0.0}));
  EXPECT_TRUE(Covector(std::vector<double>{-0.0, 1.0}) == Covector(std::vector<double>{0.0, 1.0}));
}

} // namespace
} // namespace adsem::pullback::covector_test
