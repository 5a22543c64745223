// The sized enumeration core (generators/core/sized_enumeration.hpp) on a toy grammar whose
// counts are known in closed form.
#include <algorithm>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "generators/core/sized_enumeration.hpp"

namespace adsem::sized_enumeration_test {

// Binary trees: t ::= leaf | node(t, t), one node each. Trees of n nodes (n odd): the Catalan
// number C((n-1)/2).
struct Trees {
  using Sort = int; // one sort
  using Term = std::string;
  std::string key(const Sort&) const { return "t"; }
  std::vector<gen::EnumProduction<Sort, Term>> productions(const Sort&) const {
    return {{"leaf", 1, {}, [](const std::vector<Term>&) { return std::string("."); }},
            {"node", 1, {0, 0}, [](const std::vector<Term>& k) {
               return "(" + k[0] + " " + k[1] + ")";
             }}};
  }
};

// Counting down: s_k ::= z | s(s_{k-1}) for k > 0: sorts that grow along the term (as a context
// does under binders).
struct Chain {
  using Sort = int;
  using Term = int;
  std::string key(const Sort& k) const { return std::to_string(k); }
  std::vector<gen::EnumProduction<Sort, Term>> productions(const Sort& k) const {
    std::vector<gen::EnumProduction<Sort, Term>> out = {
        {"z", 1, {}, [](const std::vector<Term>&) { return 0; }}};
    out.push_back({"s", 1, {k + 1}, [](const std::vector<Term>& t) { return t[0] + 1; }});
    return out;
  }
};

TEST(SizedEnumeration, SplitsAreTheCompositions) {
  int n = 0;
  gen::for_each_split(6, 3, [&](const std::vector<int>& p) {
    EXPECT_EQ(p[0] + p[1] + p[2], 6);
    EXPECT_GE(*std::min_element(p.begin(), p.end()), 1);
    ++n;
  });
  EXPECT_EQ(n, 10); // C(5, 2)
  n = 0;
  gen::for_each_split(0, 0, [&](const std::vector<int>&) { ++n; });
  EXPECT_EQ(n, 1);
  gen::for_each_split(2, 3, [&](const std::vector<int>&) { ++n; });
  EXPECT_EQ(n, 1);
}

TEST(SizedEnumeration, CountsAreCatalanAndEveryTermOnce) {
  gen::SizedEnumeration<Trees> e(Trees{}, {15});
  const gen::EnumCount catalan[] = {1, 1, 2, 5, 14, 42, 132, 429};
  for (int n = 1; n <= 15; ++n) {
    EXPECT_EQ(e.count(0, n), n % 2 ? catalan[(n - 1) / 2] : 0) << n;
    std::set<std::string> seen;
    for (gen::EnumCount i = 0; i < e.count(0, n); ++i) {
      const std::string t = e.nth(0, n, i);
      EXPECT_EQ(static_cast<int>(std::count(t.begin(), t.end(), '.')), (n + 1) / 2);
      seen.insert(t);
    }
    EXPECT_EQ(seen.size(), e.count(0, n)) << "size " << n << ": a term decoded twice";
  }
}

TEST(SizedEnumeration, LimitsAreGuards) {
  gen::SizedEnumeration<Trees> e(Trees{}, {5});
  EXPECT_THROW((void)e.count(0, 6), gen::EnumerationLimitReached);
  gen::SizedEnumeration<Chain> chain(Chain{}, {50, 10});
  EXPECT_EQ(chain.count(0, 9), 1U); // s^8(z): sorts 0..8 memoised
  EXPECT_THROW((void)chain.count(0, 12), gen::EnumerationLimitReached);
  EXPECT_EQ(chain.nth(0, 5, 0), 4);
}

TEST(SizedEnumeration, CountsSaturate) {
  EXPECT_EQ(gen::mul_saturating(gen::enum_count_saturated / 2, 3), gen::enum_count_saturated);
  EXPECT_EQ(gen::add_saturating(gen::enum_count_saturated, 1), gen::enum_count_saturated);
  gen::SizedEnumeration<Trees> e(Trees{}, {139});
  EXPECT_EQ(e.count(0, 139), gen::enum_count_saturated); // C(69) > 2^64
}

} // namespace adsem::sized_enumeration_test
