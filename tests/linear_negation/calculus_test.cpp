// The shared kit (tests/support/calculus_checks.hpp): the un-mutated calculus passes every
// property with non-vacuous generators; every mutant is killed by a property it names; and rule
// coverage: every rule of Table 2 fires on generated terms.
#include <functional>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "cli/builtin_registry.hpp"
#include "generators/linear_negation/terms.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "support/calculus_checks.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation::calculus_test {
namespace {

constexpr std::uint64_t seed = 20260522;

// body run on `trials` draws of RapidCheck at the seed (its generators read the draws).
void on_draws(int trials, const std::function<void()>& body) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = trials;
  (void)rc::detail::checkTestable(body, rc::detail::TestMetadata{}, params);
}

TEST(LinearNegationCalculus, UnmutatedCalculusPasses) {
  testing::expect_unmutated_calculus_passes(cli::builtin_registry(), "linear-negation", 150, seed);
}

// One test per mutant (expect_every_mutant_killed, split so that ctest -j2 runs them side by side).
class LinearNegationMutant : public ::testing::TestWithParam<std::string> {};

TEST_P(LinearNegationMutant, IsKilled) {
  const auto registry = cli::builtin_registry();
  const props::MutantDef* m = registry.find_mutant("linear-negation/" + GetParam());
  ASSERT_NE(m, nullptr);
  testing::expect_mutant_killed(registry, *m, 150, seed);
}

INSTANTIATE_TEST_SUITE_P(
    All, LinearNegationMutant,
    ::testing::Values("linear-factoring-disabled", "d-mul-drops-product-term",
                      "d-let-drops-backpropagator", "equivalence-duplicates-substitution",
                      "gradient-read-from-wrong-component", "paper-literal-prop1-seed",
                      "paper-literal-sums-move-linear-es", "paper-literal-prop17-recurrence",
                      "paper-literal-bp-sum-stacks-beta-twice", "equivalence-19-ignores-scope",
                      "forward-constant-has-tangent", "paper-literal-d-app-second-line"));

// The thirteenth and fourteenth, paper-literal-subst-9-gc-10-move-linear-stacks and
// paper-literal-pair-8-mul-14-prim-23-move-linear-stacks, name no killer: no random term reaches
// them, and enumeration kills them (enumeration_test.cpp).
TEST(LinearNegationCalculus, EveryMutantHasATest) {
  const auto registry = cli::builtin_registry();
  EXPECT_EQ(registry.find("linear-negation")->mutants.size(), 14u);
}

TEST(LinearNegationCalculus, AliasResolves) {
  const auto registry = cli::builtin_registry();
  ASSERT_NE(registry.find("bmp"), nullptr);
  EXPECT_EQ(registry.find("bmp")->id, "linear-negation");
}

TEST(LinearNegationCalculus, EveryRuleFiresOnGeneratedTerms) {
  std::map<std::string, long> fired;
  const auto count = [&](const Term& t, const Context& free, Strategy s) {
    try {
      RunOptions o;
      o.fuel = 50'000;
      o.strategy = s;
      o.free_types = free;
      for (const auto& [rule, n] : normalise(t, o).rule_counts)
        fired[rule] += n;
    } catch (const AdsemError&) {
    }
  };
  on_draws(200, [&] {
    const Typed t = *gen::closed_linear();
    count(t.term, {}, Strategy::bp);
    count(t.term, {}, Strategy::lo);
    const gen::Source s = *gen::source(2);
    const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point);
    count(w.term, w.free_types, Strategy::bp);
  });
  for (const RuleInfo& rule : paper_rules()->infos()) {
    if (rule.kind != RuleKind::reduction) continue; // D's clauses do not fire in normalise
    EXPECT_GT(fired[rule.name], 0) << "rule " << rule.name << " never fired on 200 generated terms";
  }
}

// The Builder names each binder apart and renames only a term in which a subterm with binders
// is used twice (generators/linear_negation/terms.cpp, Builder::unique): every drawn term's
// binders are unique, as elaborate's renaming leaves them, and no source binds an input.
TEST(LinearNegationCalculus, DrawnTermsHaveUniqueBinders) {
  long terms = 0;
  const auto check = [&](const Term& t, const std::vector<std::string>& inputs = {}) {
    ++terms;
    EXPECT_TRUE(binders_unique(t)) << print(t);
    for (const std::string& x : inputs) // bound around t: an input bound in t is bound twice
      EXPECT_TRUE(binders_unique(let(exp_binder(x, real_type()), t, num(0)))) << print(t);
  };
  on_draws(300, [&] {
    check((*gen::closed_linear()).term);
    check((*gen::closed_euclidean()).term);
    const gen::Source s = *gen::source(3);
    check(s.body, s.inputs);
    const gen::Source f = *gen::graph(3);
    check(f.body, f.inputs);
  });
  EXPECT_EQ(terms, 4 * 300);
}

} // namespace
} // namespace adsem::linear_negation::calculus_test
