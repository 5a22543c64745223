// The shared kit (tests/support/calculus_checks.hpp): the un-mutated calculus passes every
// property with non-vacuous generators, every mutant is killed by a property it names; and rule
// coverage: every fireable rule of the book (rules.cpp) fires on generated terms (the clauses of
// T_x on generated open terms too).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "cli/builtin_registry.hpp"
#include "generators/perturbative/terms.hpp"
#include "semantics/perturbative/rules.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "semantics/perturbative/transform.hpp"
#include "support/calculus_checks.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::perturbative::calculus_test {
namespace {

constexpr std::uint64_t seed = 20260522;

TEST(PerturbativeCalculus, UnmutatedCalculusPasses) {
  testing::expect_unmutated_calculus_passes(cli::builtin_registry(), "perturbative", 300, seed);
}

TEST(PerturbativeCalculus, EveryMutantIsKilled) {
  testing::expect_every_mutant_killed(cli::builtin_registry(), "perturbative", 300, seed);
}

TEST(PerturbativeCalculus, AliasResolves) {
  const auto registry = cli::builtin_registry();
  ASSERT_NE(registry.find("manzyuk"), nullptr);
  EXPECT_EQ(registry.find("manzyuk")->id, "perturbative");
}

TEST(PerturbativeCalculus, EveryRuleFiresOnGeneratedTerms) {
  std::map<std::string, long> fired;
  const auto result = rc::detail::checkTestable(
      [&] {
        const Term m = *gen::closed_term(gen::type_pool());
        try {
          RunOptions options;
          options.fuel = 20'000;
          for (const auto& [rule, n] : normalise(m, *paper_rules(), options).rule_counts)
            fired[rule] += n;
        } catch (const adsem::AdsemError&) {
        }
        // T_x of a generated open term (the innermost strategies meet T_x only on normal forms)
        const Type sigma = *rc::gen::elementOf(gen::type_pool());
        const Type tau = *rc::gen::elementOf(gen::type_pool());
        const Term open = *gen::term({{"x", sigma}}, tau, 2);
        Engine engine(*paper_rules());
        (void)transform(engine, "x", sigma, open);
        // D(λx. open, a, a), the derivative macro `grad` and the AD properties build (spec §2.7)
        const Term point = *gen::term({}, sigma, 1);
        (void)derivative(engine, lam("x", sigma, open), point, point);
        engine.add_firings(fired);
      },
      rc::detail::TestMetadata{},
      [] {
        rc::detail::TestParams params;
        params.seed = seed;
        params.maxSuccess = 300;
        return params;
      }());
  (void)result;
  for (const RuleInfo& rule : paper_rules()->infos())
    if (rule.unfireable.empty()) {
      EXPECT_GT(fired[rule.name], 0)
          << "rule " << rule.name << " never fired on 300 generated terms";
    }
}

} // namespace
} // namespace adsem::perturbative::calculus_test
