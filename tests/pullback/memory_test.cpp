// The reducer's memos and its context stack must not keep released terms alive: on the wide sum,
// rule 8 (seed 000 Fig. 3 L240) rebuilds the whole rest of the series at every stage, and keeping
// the earlier versions made memory cubic in the width. Releasing them early must leave every
// observable unchanged: steps, rule counts and the result.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "properties/pullback/frontend.hpp"
#include "semantics/pullback/node_memo.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback::memory_test {
namespace {

TEST(PullbackMemory, NodeMemoAnswersWithoutKeepingItsNodes) {
  NodeMemo<bool> memo(1 << 20);
  WeakNode<const Node> released;
  const Term kept = let("a", real_type(), num(1), var("a", real_type()));
  memo.insert(kept, true);
  {
    const Term t = let("b", real_type(), num(2), var("b", real_type()));
    memo.insert(t, false);
    ASSERT_NE(memo.find(t), nullptr);
    EXPECT_FALSE(*memo.find(t));
    released = t;
  }
  EXPECT_TRUE(released.expired());
  ASSERT_NE(memo.find(kept), nullptr);
  EXPECT_TRUE(*memo.find(kept));
  // Many released entries are swept, and the live ones still answer.
  for (int i = 0; i < 5000; ++i)
    memo.insert(let("c", real_type(), num(i), var("c", real_type())), true);
  ASSERT_NE(memo.find(kept), nullptr);
  EXPECT_TRUE(*memo.find(kept));
}

std::string wide_sum(int n) {
  std::string lambdas, sum;
  for (int i = 1; i <= n; ++i) {
    lambdas += "\\x" + std::to_string(i) + ":R. ";
    sum += (i == 1 ? "x" : " + x") + std::to_string(i);
  }
  return lambdas + sum;
}

// The refocusing run (frames released as it goes) against the traced one (one step at a time
// from the root), on a series long enough for the let-series memo (more than 32 stages).
TEST(PullbackMemory, WideSumGradientMatchesTheStepByStepRun) {
  const Tupled f = tupled_real_function(parse_closed(wide_sum(34)));
  const Term query = gradient_query(f, {1.0}, std::vector<double>(34, 0.3));
  RunOptions traced;
  traced.trace = true;
  const pullback::Run fast = normalise(query);
  const pullback::Run stepped = normalise(query, {}, traced);
  EXPECT_EQ(fast.steps, stepped.steps);
  EXPECT_EQ(fast.premise_steps, stepped.premise_steps);
  EXPECT_EQ(fast.rule_counts, stepped.rule_counts);
  EXPECT_EQ(print(fast.result), print(stepped.result));
  ASSERT_EQ(fast.result->kind, Kind::covec);
  EXPECT_EQ(fast.result->vec.dense(), std::vector<double>(34, 1.0));
}

} // namespace
} // namespace adsem::pullback::memory_test
