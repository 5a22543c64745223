// A closure's last application to a real is reused only where it changes no outcome: the same
// bits, the work units charged again, and only where charging them cannot run over a budget
// (semantics/core/application_memo.hpp).
#include <gtest/gtest.h>

#include <optional>

#include "semantics/core/application_memo.hpp"

namespace adsem::model::application_memo_test {
namespace {

using V = Value<double>;

struct Budgets {
  DepthBudget depth{100, 5, ErrorKind::eval};
  WorkBudget work{1000, 1};
};

TEST(ApplicationMemo, ReusesTheLastApplicationToTheSameRealAndChargesItsWork) {
  ApplicationMemo<double> memo;
  Budgets b;
  EXPECT_FALSE(memo.reuse(V(2.0), b.depth, b.work)); // nothing remembered yet
  memo.remember(V(2.0), V(8.0), 40, b.depth.depth);
  const std::optional<V> again = memo.reuse(V(2.0), b.depth, b.work);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->real().primal(), 8.0);
  EXPECT_EQ(b.work.used(), 40); // the evaluation's units, charged as if it ran again
  EXPECT_FALSE(memo.reuse(V(3.0), b.depth, b.work)); // another argument
  EXPECT_EQ(b.work.used(), 40);
}

TEST(ApplicationMemo, ComparesArgumentsBitForBit) {
  ApplicationMemo<double> memo;
  Budgets b;
  memo.remember(V(0.0), V(1.0), 40, b.depth.depth);
  EXPECT_FALSE(memo.reuse(V(-0.0), b.depth, b.work)); // equal as numbers, not as bits
  const Dual<double> perturbed = Dual<double>::perturbation(0.0, 1, 1.0);
  EXPECT_FALSE(memo.reuse(V(perturbed), b.depth, b.work)); // same primal, a tangent
  EXPECT_TRUE(memo.reuse(V(0.0), b.depth, b.work));
}

// Charging the units or entering deeper could run over a budget at another place than the
// evaluation would: the body is evaluated instead.
TEST(ApplicationMemo, IsNotReusedWhereAReplayCouldRunOverABudget) {
  ApplicationMemo<double> memo;
  Budgets b;
  memo.remember(V(2.0), V(8.0), 600, b.depth.depth);
  b.work.spend(500, "test");
  EXPECT_FALSE(memo.reuse(V(2.0), b.depth, b.work)); // 500 units left, 600 needed
  EXPECT_EQ(b.work.used(), 500);
  Budgets deeper;
  memo.remember(V(2.0), V(8.0), 600, deeper.depth.depth);
  ++deeper.depth.depth;
  EXPECT_FALSE(memo.reuse(V(2.0), deeper.depth, deeper.work)); // entered deeper than it was
  --deeper.depth.depth;
  --deeper.depth.depth;
  EXPECT_TRUE(memo.reuse(V(2.0), deeper.depth, deeper.work)); // shallower: room to spare
}

TEST(ApplicationMemo, RemembersOnlyRealArgumentsAndWorthwhileApplications) {
  ApplicationMemo<double> memo;
  Budgets b;
  const V pair = V::pair(V(1.0), V(2.0));
  memo.remember(pair, V(3.0), 40, b.depth.depth);
  EXPECT_FALSE(memo.reuse(pair, b.depth, b.work));
  memo.remember(V(1.0), V(3.0), ApplicationMemo<double>::min_units - 1, b.depth.depth);
  EXPECT_FALSE(memo.reuse(V(1.0), b.depth, b.work));
}

} // namespace
} // namespace adsem::model::application_memo_test
