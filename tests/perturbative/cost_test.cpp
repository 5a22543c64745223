// The size of T_x M (spec §9.6; seed 004 Fig. 4 L211-218 and the cost conjecture L32, L353): the
// Fig. 4 recurrence of tx_cost.hpp is exact where no zero is dropped, the tree grows ×3 per level
// of an argument chain while the hash-consed DAG grows linearly, and the sharing counts are
// consistent. The full curves are bench/perturbative_tx_growth.cpp.
#include <gtest/gtest.h>

#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/mutants.hpp"
#include "semantics/perturbative/denotation.hpp"
#include "semantics/perturbative/transform.hpp"
#include "semantics/perturbative/tx_cost.hpp"
#include "syntax/perturbative/sharing.hpp"

namespace adsem::perturbative::cost_test {
namespace {

const Type R = real_type();

Term chain(int k) { // f (f (… (f x)))
  Term m = var("x", R);
  for (int i = 0; i < k; ++i)
    m = app(var("f", arrow_type(R, R)), m);
  return m;
}

Term curried(int k) { // g x x … x
  Type t = R;
  for (int i = 0; i < k; ++i)
    t = arrow_type(R, t);
  Term m = var("g", t);
  for (int i = 0; i < k; ++i)
    m = app(m, var("x", R));
  return m;
}

constexpr long cap = 1L << 60;

TEST(PerturbativeCost, Fig4RecurrenceIsExactWithoutZeros) {
  for (int k = 1; k <= 9; ++k) {
    for (const Term& m : {chain(k), curried(k)}) {
      const Term t = transform(*paper_rules(), "x", R, m);
      const TxSizeBound b = tx_size_bound("x", m);
      EXPECT_EQ(static_cast<double>(tree_size(t, cap)), b.tree_size) << "k = " << k;
      EXPECT_EQ(static_cast<double>(t.items.size()), b.summands) << "k = " << k;
    }
  }
}

TEST(PerturbativeCost, TreeTriplesPerChainLevelWhileTheHashConsedDagGrowsLinearly) {
  std::vector<long> tree, hashconsed;
  for (int k = 1; k <= 12; ++k) {
    const Term t = transform(*paper_rules(), "x", R, chain(k));
    tree.push_back(tree_size(t, cap));
    hashconsed.push_back(hashconsed_size(t));
    EXPECT_LE(hashconsed.back(), dag_size(t));
    EXPECT_LE(dag_size(t), tree.back());
  }
  for (std::size_t i = 4; i < tree.size(); ++i) {
    const double growth = static_cast<double>(tree[i]) / static_cast<double>(tree[i - 1]);
    EXPECT_GT(growth, 2.9) << "k = " << i + 1;
    EXPECT_LT(growth, 3.1) << "k = " << i + 1;
    // linear: the same number of new distinct nodes per level
    EXPECT_EQ(hashconsed[i] - hashconsed[i - 1], hashconsed[i - 1] - hashconsed[i - 2])
        << "k = " << i + 1;
  }
}

// A capped count stops walking at the cap: it must still be min(cap, the tree size), for every
// cap, on shared T_x output (where a node memoised at the cap is met again).
TEST(PerturbativeCost, ACappedTreeSizeIsTheSaturatedTreeSize) {
  for (int k = 3; k <= 6; ++k) {
    for (const Term& m : {chain(k), curried(k)}) {
      const Term t = transform(*paper_rules(), "x", R, m);
      const long full = tree_size(t, cap);
      for (long c : {1L, 2L, 7L, full / 3, full / 2, full - 1, full, full + 1})
        if (c > 0) {
          EXPECT_EQ(tree_size(t, c), std::min(c, full)) << "k = " << k << ", cap " << c;
        }
    }
  }
}

TEST(PerturbativeCost, CurriedNestingTriplesTheSummandsEvenWithSharing) {
  for (int k = 1; k <= 8; ++k) {
    const Term t = transform(*paper_rules(), "x", R, curried(k));
    long expected = 1;
    for (int i = 0; i < k; ++i)
      expected *= 3;
    EXPECT_EQ(static_cast<long>(t.items.size()), expected) << "k = " << k;
  }
}

TEST(PerturbativeCost, MutatedClausesExceedTheBound) {
  // T_x y = ⟨y, y⟩ builds more than Fig. 4 allows: the cost property sees it.
  const Term m = app(var("f", arrow_type(R, R)), var("y", R));
  const Term t =
      transform(*semantics_for("perturbative/tx-perturbs-free-variables").rules, "x", R, m);
  EXPECT_GT(static_cast<double>(tree_size(t, cap)), tx_size_bound("x", m).tree_size);
}

// SEM-11's negative case (spec §6.2): the ARGUMENT position is not linear.
TEST(PerturbativeSugar, ArgumentPositionIsNotLinear) {
  const auto value = [](const std::string& source) {
    return denote<double>(parse_closed(source), nullptr, DenoteContext()).real().primal();
  };
  EXPECT_GT(std::abs(value("sin (1 + 2)") - (value("sin 1") + value("sin 2"))), 0.1);
  EXPECT_DOUBLE_EQ(value("(sin + cos) 2"), value("sin 2") + value("cos 2"));
}

} // namespace
} // namespace adsem::perturbative::cost_test
