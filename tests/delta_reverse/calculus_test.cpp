// The shared kit (tests/support/calculus_checks.hpp): the un-mutated calculus passes every
// property with non-vacuous generators; every mutant is killed by a property it names; and rule
// coverage: every named rule of the machine, eval, the sweep and eval_2 fires on generated terms.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "cli/builtin_registry.hpp"
#include "generators/delta_reverse/terms.hpp"
#include "semantics/delta_reverse/wrappers.hpp"
#include "support/calculus_checks.hpp"

namespace adsem::delta_reverse::calculus_test {
namespace {

constexpr std::uint64_t seed = 20261122;

TEST(DeltaReverseCalculus, UnmutatedCalculusPasses) {
  adsem::testing::expect_unmutated_calculus_passes(cli::builtin_registry(), "delta-reverse", 300,
                                                   seed);
}

TEST(DeltaReverseCalculus, EveryMutantIsKilled) {
  adsem::testing::expect_every_mutant_killed(cli::builtin_registry(), "delta-reverse", 300, seed);
}

TEST(DeltaReverseCalculus, AliasResolves) {
  const auto registry = cli::builtin_registry();
  ASSERT_NE(registry.find("krawiec"), nullptr);
  EXPECT_EQ(registry.find("krawiec")->id, "delta-reverse");
}

TEST(DeltaReverseCalculus, EveryRuleFiresOnGeneratedTerms) {
  Ledger total;
  const auto add = [&](const Ledger& l) {
    for (std::size_t i = 0; i < step_count; ++i)
      total.counts[i] += l.counts[i];
  };
  const auto result = rc::detail::checkTestable(
      [&] {
        gen::Options o;
        o.real_output = true;
        o.sums_in_input = *rc::gen::inRange(0, 2) == 0;
        o.arrays = *rc::gen::inRange(0, 2) == 0; // the array extension's rules (§10.2)
        const gen::MainExpression m = *gen::main_expression(o);
        const Program p{m.term, m.s, m.t};
        const Value s = *gen::value_of(m.s);
        try {
          add(reverse(p, s, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, 100'000).ledger);
          add(reverse(p, s, v_real(1.0), Wrapper::fig15, EvalImpl::array, {}, 100'000).ledger);
          add(reverse2(p, s, 1.0, {}, 100'000).ledger);
          if (!o.sums_in_input) add(reverse1(p, s, 1.0, {}, 100'000).ledger);
        } catch (const AdsemError&) {
        }
      },
      rc::detail::TestMetadata{},
      [] {
        rc::detail::TestParams params;
        params.seed = seed;
        params.maxSuccess = 300;
        return params;
      }());
  (void)result;
  for (const Step r : all_steps())
    EXPECT_GT(total.count(r), 0) << "rule " << step_name(r)
                                 << " never fired on 300 generated programs";
}

} // namespace
} // namespace adsem::delta_reverse::calculus_test
