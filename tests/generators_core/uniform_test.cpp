// The generators' uniform choices must be RapidCheck's *resize(100, inRange(lo, hi)): the same
// values from the same random stream and the same shrinks in the same order, or every generated
// term, every shrunk counterexample and every replayed token would change.
#include "generators/core/uniform.hpp"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>

namespace adsem::gen::uniform_test {
namespace {

const std::vector<std::pair<int, int>> ranges = {{0, 1},   {0, 2},  {0, 3},      {0, 14},
                                                 {1, 2},   {1, 4},  {0, 128},    {1, 129},
                                                 {0, 129}, {-3, 5}, {-200, 201}, {6, 11}};

// A draw of every range, through the generators' choices or through rc's own generator.
rc::Gen<std::vector<int>> draws(bool ours) {
  return rc::gen::exec([ours] {
    std::vector<int> out;
    for (const auto& [lo, hi] : ranges) {
      if (!ours) {
        out.push_back(*rc::gen::resize(100, rc::gen::inRange(lo, hi)));
        out.push_back(*rc::gen::resize(100, rc::gen::inRange(lo, hi)));
      } else {
        out.push_back(uniform_in(lo, hi));
        const Uniform made(lo, hi);
        out.push_back(made());
      }
    }
    return out;
  });
}

// The values of a shrinkable and of its shrinks, depth first, to a bounded depth and breadth.
void listing(const rc::Shrinkable<std::vector<int>>& s, int depth,
             std::vector<std::vector<int>>& out) {
  out.push_back(s.value());
  if (depth == 0) return;
  auto shrinks = s.shrinks();
  for (int k = 0; k < 6; ++k) {
    auto next = shrinks.next();
    if (!next) {
      out.push_back({}); // the end of the shrinks, marked
      return;
    }
    listing(*next, depth - 1, out);
  }
}

TEST(Uniform, DrawsAndShrinksAsInRangeAtSize100) {
  const auto ours = draws(true), theirs = draws(false);
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    for (const int size : {0, 7, 100}) {
      const rc::Random random(seed);
      std::vector<std::vector<int>> expected, actual;
      listing(theirs(random, size), 2, expected);
      listing(ours(random, size), 2, actual);
      ASSERT_EQ(expected, actual) << "seed " << seed << ", size " << size;
    }
  }
}

TEST(Uniform, AnEmptyRangeFailsAsInRange) {
  const auto value = [](const rc::Gen<int>& g) -> std::string {
    try {
      (void)g(rc::Random(1), 100).value();
    } catch (const rc::GenerationFailure& e) {
      return e.what();
    }
    return "";
  };
  const auto ours = rc::gen::exec([] { return Uniform(3, 3)(); });
  EXPECT_EQ(value(rc::gen::resize(100, rc::gen::inRange(3, 3))), "Invalid range [3, 3)");
  EXPECT_EQ(value(ours), "Invalid range [3, 3)");
}

} // namespace
} // namespace adsem::gen::uniform_test
