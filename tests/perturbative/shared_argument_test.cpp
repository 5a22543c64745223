// The applications s_i N that (Σ s_i) N makes (seed 004, L165-185) hold one argument bag between
// them (syntax/perturbative/ast.hpp, `Argument`). The walks over the DAG must still see the tree:
// the tree size counts the bag once per holder, and the normaliser runs such a term exactly as
// the same term built with a bag of its own in each application.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "semantics/perturbative/rules.hpp"
#include "semantics/perturbative/strategy.hpp"

namespace adsem::perturbative::shared_argument_test {
namespace {

const Type r = real_type();
const Type r_to_r = arrow_type(real_type(), real_type());

TEST(PerturbativeSharedArgument, TheApplicationsOfOneSumHoldOneBag) {
  const Term op = sum(var("f", r_to_r), var("g", r_to_r));
  const Term m = app(op, sum(var("x", r), numeral(2)));
  ASSERT_EQ(m.items.size(), 2u);
  const Simple& first = *m.items[0];
  const Simple& second = *m.items[1];
  EXPECT_EQ(&*first.argument, &*second.argument);
  EXPECT_TRUE(first.argument.shared());
  EXPECT_EQ(first.argument->items.size(), 2u);
}

TEST(PerturbativeSharedArgument, TreeSizeCountsASharedBagOncePerHolder) {
  // N_0 = x, N_{k+1} = (f + g) N_k: a DAG of 3k+1 nodes whose tree doubles at each level
  // (size S_{k+1} = 1 + 2(2 + S_k) with S_0 = 2, a bag counting one node). Walked as a tree it
  // would take 2^k steps; walked by the DAG it must still count every one of them.
  const Term op = sum(var("f", r_to_r), var("g", r_to_r));
  Term n = var("x", r);
  long expected = 2;
  for (int k = 0; k < 40; ++k) {
    n = app(op, n);
    expected = 1 + 2 * (2 + expected);
  }
  EXPECT_EQ(size_of(app(op, var("x", r))), 1 + 2 * (2 + 2));
  EXPECT_EQ(tree_size(n, 1L << 50), expected);
  EXPECT_EQ(tree_size(n, 1000), 1000);
}

struct Observed {
  std::string normal_form;
  long steps = -1;
  std::map<std::string, long> firings;
  friend bool operator==(const Observed&, const Observed&) = default;
};

Observed observe(const Term& m, bool trace) {
  RunOptions options;
  options.trace = trace;
  const Run run = normalise(m, *paper_rules(), options);
  return {canonical_key(run.result), run.steps, run.rule_counts};
}

TEST(PerturbativeSharedArgument, NormalisesLikeABagOfItsOwnInEachApplication) {
  // (λy.y + λy.T(λz.z) pair) (3 + (λw.w) 4): two β-redexes sharing an argument that reduces.
  const Term inner = app(lam("w", r, var("w", r)), numeral(4));
  const Term argument = sum(numeral(3), inner);
  const Term identity = lam("y", r, var("y", r));
  const Term doubled = lam("y", r, sum(var("y", r), var("y", r)));
  const Term shared = app(sum(identity, doubled), argument);
  const Term own = sum(app(identity, argument), app(doubled, argument));
  ASSERT_NE(&*shared.items[0]->argument, &*own.items[0]->argument);
  const Observed expected = observe(own, true);
  EXPECT_EQ(expected.normal_form, canonical_key(numeral(3 * 7)));
  EXPECT_EQ(observe(shared, false), expected);
  EXPECT_EQ(observe(shared, true), expected);
  EXPECT_EQ(observe(own, false), expected);
}

} // namespace
} // namespace adsem::perturbative::shared_argument_test
