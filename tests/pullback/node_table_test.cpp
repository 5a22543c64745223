// The flat node-keyed table (syntax/pullback/node_table.hpp) behind the reducer's inert subterms
// and the type checker's memo: each node finds its own answer through the index's growth, emplace
// keeps the first answer, insert_or_assign replaces it, and clear forgets every node; a weak entry
// (the inert subterms') lets its node go but keeps its address from being reused.
#include <gtest/gtest.h>

#include "syntax/pullback/node_table.hpp"

namespace adsem::pullback::node_table_test {
namespace {

TEST(PullbackNodeTable, EveryNodeFindsItsOwnAnswerAcrossGrowth) {
  NodeTable<int> table;
  std::vector<Term> nodes;
  for (int i = 0; i < 1000; ++i) // several doublings of the index
    nodes.push_back(num(i));
  for (int i = 0; i < 1000; ++i)
    table.emplace(nodes[static_cast<std::size_t>(i)], i);
  EXPECT_EQ(table.size(), 1000U);
  for (int i = 0; i < 1000; ++i) {
    const int* found = table.find(nodes[static_cast<std::size_t>(i)].get());
    ASSERT_NE(found, nullptr) << i;
    EXPECT_EQ(*found, i);
  }
  const Term other = num(0); // equal to a key, but another node
  EXPECT_EQ(table.find(other.get()), nullptr);
}

TEST(PullbackNodeTable, EmplaceKeepsAndInsertOrAssignReplaces) {
  NodeTable<int> table;
  const Term t = var("x", real_type());
  table.emplace(t, 1);
  table.emplace(t, 2);
  ASSERT_NE(table.find(t.get()), nullptr);
  EXPECT_EQ(*table.find(t.get()), 1);
  table.insert_or_assign(t, 3);
  EXPECT_EQ(*table.find(t.get()), 3);
  EXPECT_EQ(table.size(), 1U);
}

TEST(PullbackNodeTable, HoldsItsNodesUntilCleared) {
  NodeTable<int> table;
  Term t = num(1);
  const WeakNode<const Node> seen = t;
  const Node* key = t.get();
  table.emplace(t, 7);
  t.reset();
  EXPECT_FALSE(seen.expired()); // the address cannot be reused while the entry lives
  ASSERT_NE(table.find(key), nullptr);
  table.clear();
  EXPECT_TRUE(seen.expired());
  EXPECT_EQ(table.size(), 0U);
  EXPECT_EQ(table.find(key), nullptr);
}

TEST(PullbackNodeTable, AWeakEntryReleasesItsNodeButNotItsAddress) {
  NodeTable<int, WeakNode<const Node>> table;
  Term t = pair(num(1), num(2));
  const WeakNode<const Node> kid = t->kids[0];
  const Node* key = t.get();
  table.emplace(t, 7);
  ASSERT_NE(table.find(key), nullptr);
  EXPECT_EQ(*table.find(key), 7);
  t.reset();
  EXPECT_TRUE(kid.expired()); // the node and its kids went with the term
  // Its block stays allocated while the entry lives: no new node can take the address.
  std::vector<Term> fresh;
  for (int i = 0; i < 1000; ++i) {
    fresh.push_back(pair(num(i), num(i)));
    EXPECT_NE(fresh.back().get(), key);
  }
  table.clear();
  EXPECT_EQ(table.find(key), nullptr);
}

} // namespace
} // namespace adsem::pullback::node_table_test
