// LazyMt19937_64 must give std::mt19937_64's numbers: S_rand's draws (and so every generated
// reduction order of linear-negation) depend on it.
#include "semantics/core/lazy_mt19937_64.hpp"

#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace adsem::lazy_mt19937_64_test {
namespace {

TEST(LazyMt19937_64, MatchesTheStandardEngine) {
  // seeds as S_rand chains them, and edge values; lengths across the lazy round and past it
  std::vector<std::uint64_t> seeds{0, 1, 5489, ~std::uint64_t{0}, 0x8000000000000000ULL};
  std::mt19937_64 chain(42);
  for (int i = 0; i < 40; ++i)
    seeds.push_back(chain());
  for (const std::uint64_t seed : seeds) {
    for (const int length : {1, 2, 155, 156, 157, 311, 312, 313, 700, 1000}) {
      std::mt19937_64 expected(seed);
      LazyMt19937_64 actual(seed);
      for (int k = 0; k < length; ++k) {
        const std::uint64_t e = expected(), a = actual();
        ASSERT_EQ(e, a) << "seed " << seed << ", number " << k;
      }
    }
  }
}

TEST(LazyMt19937_64, DrivesUniformIntDistributionAsTheStandardEngine) {
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 expected(seed);
    LazyMt19937_64 actual(seed);
    for (long seen = 1; seen <= 400; ++seen) {
      const long e = std::uniform_int_distribution<long>(0, seen - 1)(expected);
      const long a = std::uniform_int_distribution<long>(0, seen - 1)(actual);
      ASSERT_EQ(e, a) << "seed " << seed << ", draw " << seen;
    }
    EXPECT_EQ(expected(), actual());
  }
}

TEST(LazyMt19937_64, PreparedMatchesTheStandardEngine) {
  // prepare seeds ahead the words the announced draws read; drawing fewer or more stays the same
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{5489}, ~std::uint64_t{0}}) {
    for (const std::size_t announced : {0U, 1U, 2U, 155U, 156U, 157U, 311U, 312U, 313U, 900U}) {
      for (const int length : {1, 156, 157, 313, 700}) {
        std::mt19937_64 expected(seed);
        LazyMt19937_64 actual(seed);
        actual.prepare(announced);
        for (int k = 0; k < length; ++k) {
          const std::uint64_t e = expected(), a = actual();
          ASSERT_EQ(e, a) << "seed " << seed << ", prepared " << announced << ", number " << k;
        }
      }
    }
  }
}

TEST(LazyMt19937_64, PreparedAgainMatchesTheStandardEngine) {
  // a second prepare, after numbers drawn, reads words the first one left unwritten
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{5489}, ~std::uint64_t{0}}) {
    for (const std::size_t first : {1U, 3U, 20U, 153U}) {
      for (const std::size_t second : {2U, 21U, 154U, 200U}) {
        std::mt19937_64 expected(seed);
        LazyMt19937_64 actual(seed);
        actual.prepare(first);
        for (std::size_t k = 0; k < 400; ++k) {
          if (k == first / 2) actual.prepare(second);
          ASSERT_EQ(expected(), actual()) << "seed " << seed << ", prepared " << first << " then "
                                          << second << ", number " << k;
        }
      }
    }
  }
}

TEST(LazyMt19937_64, DrawingMatchesTheStandardEngine) {
  // drawing twists each word as it is drawn; fewer or more numbers than announced, after numbers
  // drawn or prepared, and through the uniform distribution, stay the standard engine's
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{5489}, ~std::uint64_t{0}}) {
    for (const std::size_t before : {0U, 1U, 40U, 160U}) {
      for (const std::size_t announced : {0U, 1U, 2U, 30U, 155U, 156U, 157U, 400U}) {
        for (const std::size_t length : {0U, 1U, 31U, 157U, 700U}) {
          std::mt19937_64 expected(seed);
          LazyMt19937_64 actual(seed);
          if (before == 1) actual.prepare(20);
          for (std::size_t k = 0; k < before; ++k)
            ASSERT_EQ(expected(), actual());
          actual.drawing(announced, [&](auto& numbers) {
            for (std::size_t k = 0; k < length; ++k)
              ASSERT_EQ(expected(), numbers()) << "seed " << seed << ", after " << before
                                               << ", announced " << announced << ", number " << k;
          });
          ASSERT_EQ(expected(), actual()) << "seed " << seed << ", after the generator";
        }
      }
    }
  }
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 expected(seed);
    LazyMt19937_64 actual(seed);
    actual.drawing(401, [&](auto& numbers) {
      for (long seen = 1; seen <= 400; ++seen)
        ASSERT_EQ(std::uniform_int_distribution<long>(0, seen - 1)(expected),
                  std::uniform_int_distribution<long>(0, seen - 1)(numbers));
    });
    EXPECT_EQ(expected(), actual());
  }
}

} // namespace
} // namespace adsem::lazy_mt19937_64_test
