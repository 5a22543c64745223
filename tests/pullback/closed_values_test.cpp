// The closed values kept over the terms of a run (semantics/pullback/closed_values.hpp): a kept
// node denotes what it denotes afresh, a remembering closure answers a repeated ground argument
// without running again and never remembers a perturbed one.
#include <gtest/gtest.h>

#include <memory>

#include "semantics/core/pushforward.hpp"
#include "semantics/pullback/closed_values.hpp"
#include "semantics/pullback/denotation.hpp"
#include "semantics/pullback/primitive_table.hpp"

namespace adsem::pullback::closed_values_test {
namespace {

using V = model::Value<double>;

TEST(ClosedValues, KeptDenotationEqualsFreshAtProbes) {
  const Term t = parse("((Omega \\y:R * R. <sin(y.1), mult(<y.1, y.2>)>) @ (\\u:R * R. "
                       "[1.5, -0.5]^*)) <0.25, 2>");
  ClosedValues closed;
  DenoteContext kept;
  kept.closed_values = &closed;
  const V fresh = denote<double>(t, nullptr, DenoteContext());
  for (int round = 0; round < 2; ++round) { // the second round is answered from the memo
    const V v = denote<double>(t, nullptr, kept);
    for (const auto& probe :
         {V::pair(V(1.0), V(0.0)), V::pair(V(0.0), V(1.0)), V::pair(V(-0.75), V(1.25))}) {
      EXPECT_EQ(v(probe).real().primal(), fresh(probe).real().primal());
    }
  }
  EXPECT_NE(closed.find(t), nullptr);
  EXPECT_NE(closed.find(t->kids[0]), nullptr); // the pullback: closed, shared by later steps
}

TEST(ClosedValues, OpenNodesAreNotKept) {
  const Term t = parse("\\x:R. sin(x)");
  EXPECT_TRUE(ClosedValues::may_keep(t));
  EXPECT_FALSE(ClosedValues::may_keep(t->kids[0])); // sin(x): x free
}

TEST(ClosedValues, RememberingRunsOncePerGroundArgumentOnly) {
  const auto calls = std::make_shared<int>(0);
  const V square = ClosedValues::remembering(V::function([calls](const V& a) {
    ++*calls;
    return V(a.real() * a.real());
  }));
  EXPECT_EQ(square(V(3.0)).real().primal(), 9.0);
  EXPECT_EQ(square(V(3.0)).real().primal(), 9.0);
  EXPECT_EQ(*calls, 1);
  EXPECT_EQ(square(V(-0.0)).real().primal(), 0.0);
  EXPECT_EQ(square(V(0.0)).real().primal(), 0.0);
  EXPECT_EQ(*calls, 3); // 0 and -0 are different arguments
  // A perturbed argument runs every time (its result depends on the live tag).
  const model::DiffContext diff;
  const V d1 = model::directional_derivative(square, V(2.0), V(1.0), diff);
  const V d2 = model::directional_derivative(square, V(2.0), V(1.0), diff);
  EXPECT_EQ(d1.real().primal(), 4.0);
  EXPECT_EQ(d2.real().primal(), 4.0);
  EXPECT_EQ(*calls, 5);
}

} // namespace
} // namespace adsem::pullback::closed_values_test
