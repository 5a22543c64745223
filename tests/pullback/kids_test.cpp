// A node's kids (syntax/pullback/small_list.hpp) behave as a vector of handles: inline up to two,
// on the heap past that, with copies, moves and assignments between the two kept exact (the read
// pointer points into the object itself, so each of them must set it again).
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback::kids_test {
namespace {

std::vector<Term> numerals(int n) {
  std::vector<Term> out;
  for (int i = 0; i < n; ++i)
    out.push_back(num(i));
  return out;
}

void expect_holds(const Kids& kids, const std::vector<Term>& want) {
  ASSERT_EQ(kids.size(), want.size());
  EXPECT_EQ(kids.empty(), want.empty());
  std::size_t i = 0;
  for (const Term& k : kids)
    EXPECT_EQ(k, want[i++]); // the same handles, in order
  for (std::size_t j = 0; j < want.size(); ++j)
    EXPECT_EQ(kids[j], want[j]);
}

TEST(PullbackKids, InlineAndHeapKidsCopyMoveAndAssign) {
  for (int n = 0; n <= 5; ++n) {
    const std::vector<Term> want = numerals(n);
    Kids built;
    for (const Term& t : want)
      built.push_back(t);
    expect_holds(built, want);
    expect_holds(Kids(want), want);

    const Kids copy(built);
    expect_holds(copy, want);
    expect_holds(built, want);
    Kids moved(std::move(built));
    expect_holds(moved, want);
    EXPECT_TRUE(built.empty()); // NOLINT(bugprone-use-after-move): moved-from is empty
    built.push_back(num(9));    // and usable
    EXPECT_EQ(built.size(), 1u);

    for (int m = 0; m <= 5; ++m) { // assignments between every pair of sizes
      Kids target(numerals(m));
      target = copy;
      expect_holds(target, want);
      Kids other(numerals(m));
      Kids source(copy);
      other = std::move(source);
      expect_holds(other, want);
      EXPECT_TRUE(source.empty()); // NOLINT(bugprone-use-after-move)
    }
    Kids self(copy);
    const Kids& alias = self;
    self = alias;
    expect_holds(self, want);
  }
}

TEST(PullbackKids, InsertKeepsTheOrderAcrossTheInlineRoom) {
  // The facts' sorted free names are built by insertion (ast.cpp).
  for (int n = 0; n <= 5; ++n) {
    for (int at = 0; at <= n; ++at) {
      std::vector<std::string_view> want;
      SmallList<std::string_view> list;
      for (int i = 0; i < n; ++i) {
        want.push_back("a");
        list.push_back("a");
      }
      want.insert(want.begin() + at, "b");
      list.insert(list.begin() + at, "b");
      ASSERT_EQ(list.size(), want.size());
      EXPECT_TRUE(std::equal(list.begin(), list.end(), want.begin(), want.end()));
    }
  }
}

TEST(PullbackKids, AKidLivesAsLongAsANodeHoldsIt) {
  WeakNode<const Node> watched;
  {
    Term kid = num(1.0);
    watched = kid;
    const Term p = pair(kid, num(2.0));
    kid = nullptr;
    EXPECT_FALSE(watched.expired());
    const Term s = sum({p, num(3.0), num(4.0)}); // three kids: on the heap
    EXPECT_EQ(s->kids.size(), 3u);
  }
  EXPECT_TRUE(watched.expired());
}

TEST(PullbackKids, ACopiedCovectorIsItsOwnValue) {
  const Covector a(std::vector<double>{0.0, -0.0, 2.0});
  Covector b(a);
  EXPECT_TRUE(b == a);
  b = Covector(std::vector<double>{1.0});
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(b.size(), 1u);
  b = a;
  EXPECT_TRUE(b == a);
  const Covector empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_TRUE(empty.entries().empty());
  EXPECT_TRUE(empty.dense().empty());
}

} // namespace
} // namespace adsem::pullback::kids_test
