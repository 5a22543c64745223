// The shared kit (tests/support/calculus_checks.hpp): the un-mutated calculus passes every
// property with non-vacuous generators, every mutant is killed by a property it names; and rule
// coverage: every rule of rules.hpp fires on generated terms (plus the hand-made shapes of spec
// §8.6 for the rules that generated first-order terms rarely reach).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "cli/builtin_registry.hpp"
#include "generators/pullback/terms.hpp"
#include "properties/pullback/frontend.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/strategy.hpp"
#include "support/calculus_checks.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::calculus_test {
namespace {

constexpr std::uint64_t seed = 20260522;

TEST(PullbackCalculus, UnmutatedCalculusPasses) {
  testing::expect_unmutated_calculus_passes(cli::builtin_registry(), "pullback", 300, seed);
}

TEST(PullbackCalculus, EveryMutantIsKilled) {
  testing::expect_every_mutant_killed(cli::builtin_registry(), "pullback", 300, seed);
}

TEST(PullbackCalculus, AliasResolves) {
  const auto registry = cli::builtin_registry();
  ASSERT_NE(registry.find("mak-ong"), nullptr);
  EXPECT_EQ(registry.find("mak-ong")->id, "pullback");
}

void count_rules(const Term& t, std::map<std::string, long>& fired) {
  try {
    RunOptions o;
    o.fuel = 20'000;
    for (const auto& [rule, n] : normalise(t, {}, o).rule_counts)
      fired[rule] += n;
  } catch (const AdsemError&) {
  }
}

TEST(PullbackCalculus, EveryRuleFiresOnGeneratedTerms) {
  std::map<std::string, long> fired;
  const auto result = rc::detail::checkTestable(
      [&] {
        const int k = *rc::gen::inRange(0, 4);
        const Term t = k == 0   ? (*gen::functional_query()).term()
                       : k == 1 ? (*gen::symbolic_query()).term()
                       : k == 2 ? (*gen::first_order_query()).term()
                                : *gen::closed_term();
        count_rules(t, fired);
      },
      rc::detail::TestMetadata{},
      [] {
        rc::detail::TestParams params;
        params.seed = seed;
        params.maxSuccess = 300;
        return params;
      }());
  (void)result;
  const std::vector<std::string> rare = rare_rule_names();
  for (const std::string& rule : rule_names()) {
    if (std::find(rare.begin(), rare.end(), rule) != rare.end()) continue;
    EXPECT_GT(fired[rule], 0) << "rule " << rule << " never fired on 300 generated terms";
  }
}

// The rules generated terms rarely reach, on hand-made terms (spec §8.6 and [ID]).
TEST(PullbackCalculus, RareRulesFireOnHandMadeTerms) {
  std::map<std::string, long> fired;
  for (const char* source : {
           "(J mult @ [1, 2]) [3, 4]",                                                       // 4
           "((Omega \\y:R. \\x:R. mult(<y, x>)) @ (\\h:R->R. (\\k:R->R. k 2)^* @ [1]^*)) 3", // T11:
                                                                                             // 13a
           "((Omega \\y:R. (\\z:R. mult(<z,z>)) y) @ Omega[1]) 3",                           // 19b
           "((Omega \\y:R. (\\z:R. 5) y) @ Omega[1]) 3",                                     // 19c
           "<1, 2> + <3, 4>",                                                                // N2
           "[1, 2]^* + [3, 4]^*",                                                            // N3
           "((\\x:R. x) + (\\x:R. mult(<x, x>))) 3", // Sigma1
           "(zero : R * R).1",                       // Z2
       }) {
    try {
      count_rules(parse_closed(source), fired);
    } catch (const AdsemError& e) {
      ADD_FAILURE() << source << ": " << e.what();
    }
  }
  // 16b, 16c and 17 need a foreign atom (a free variable of the differentiated body).
  const Type rd = dual(real_type());
  const std::vector<std::pair<const char*, std::map<std::string, Type>>> open = {
      // spec §10: y-dependence that avoids Hessians, (λb.x) y
      {"((Omega \\y:R. (\\x:R. (\\b:R. x) y)^* @ c) @ om) 3",
       {{"c", rd}, {"om", one_form(rd)}}}, // 16b
      {"((Omega \\y:R * R^*. (\\x:R. (\\b:R. x) y.1)^* @ y.2) @ om) <3, [2]^*>",
       {{"om", one_form(rd)}}},                                    // 16c
      {"(a + b).1", {{"a", real_power(2)}, {"b", real_power(2)}}}, // Sigma2
      {"(\\v:R. v)^* @ (a + b)", {{"a", rd}, {"b", rd}}},          // Sigma3
      {"((Omega \\y:R. (Omega \\x:R. mult(<x, y>)) @ w) @ om) 3",
       {{"w", one_form(real_type())}, {"om", one_form(one_form(real_type()))}}}, // 17
  };
  for (const auto& [source, free] : open) {
    try {
      count_rules(annotate_zeros(parse(source, free)), fired);
    } catch (const AdsemError& e) {
      ADD_FAILURE() << source << ": " << e.what();
    }
  }
  for (const std::string& rule : rare_rule_names())
    EXPECT_GT(fired[rule], 0) << "rule " << rule;
}

} // namespace
} // namespace adsem::pullback::calculus_test
