// Bounded-exhaustive enumeration of perturbative (generators/perturbative/enumeration.hpp,
// properties/perturbative/enumeration.hpp, docs/enumeration.md): the counts of the smallest sizes
// by hand, every term closed and well typed, mutants killed with a smallest counterexample, and
// the paper's rules passing to the bound (every property that takes part).
#include <set>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "generators/perturbative/enumeration.hpp"
#include "properties/core/enumeration.hpp"
#include "semantics/perturbative/constants.hpp"
#include "support/enumeration_checks.hpp"
#include "syntax/perturbative/printer.hpp"
#include "syntax/perturbative/typecheck.hpp"

namespace adsem::perturbative::enumeration_test {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

props::EnumerationResult run(const std::string& mutant, int max_size) {
  props::EnumerationOptions o;
  o.calculus = "perturbative";
  o.mutant = mutant;
  o.max_size = max_size;
  return props::run_enumeration(registry(), o);
}

// ⊢ _ : R by hand (numerals 1, -2), then the functions λy1:R. M (one node more than M):
//   size 1: the two numerals                                                           2
//   size 2: none (sin a needs 3 nodes); λy1. b, b one of y1, 1, -2                      0 + 3
//   size 3: sin a (2), a + b (2·2); no body of size 2                                  6 + 0
//   size 4: (λy1. b) a with b one of y1, 1, -2 and a a numeral;
//           λy1. sin b (3), λy1. b + c (3·3)                                            6 + 12
TEST(PerturbativeEnumeration, CountsOfTheSmallestSizesAreTheHandCounts) {
  EXPECT_EQ(props::enumeration_counts(registry(), "perturbative", 4),
            (std::vector<std::uint64_t>{0, 2, 3, 6, 18}));
}

// Every enumerated term is closed, type-checks at R and prints as it parses. Unlike the other
// calculi's, this grammar is ambiguous modulo the paper's sugar (L165-185: + is a bag, and λ,
// application and projection distribute over it), so a term may be listed more than once (size 7:
// 136 distinct of 232); each listing is checked.
TEST(PerturbativeEnumeration, EveryTermIsClosedAndWellTyped) {
  const int bound = 9;
  gen::TermEnumeration e(gen::EnumGrammar{}, {bound});
  const gen::EnumSort sort = gen::enum_closed_real_sort();
  for (int n = 1; n <= bound; ++n) {
    std::set<std::string> seen;
    const std::uint64_t count = e.count(sort, n);
    for (std::uint64_t i = 0; i < count; ++i) {
      const Term m = e.nth(sort, n, i);
      ASSERT_TRUE(free_variables(m).empty()) << print(m);
      ASSERT_TRUE(same_type(m.type, real_type())) << print(m);
      const auto error = type_error(m, {}, constant_types());
      ASSERT_FALSE(error.has_value()) << print(m) << ": " << *error;
      ASSERT_EQ(canonical_key(parse_term(print(m), constant_types())), canonical_key(m))
          << print(m);
      seen.insert(canonical_key(m) + print(m));
    }
    EXPECT_GE(2 * seen.size(), count) << "size " << n; // at most about half are repeats
  }
}

// (×2) π_k(ι_l s) → s: the smallest sum of two crossed projections, size 6, is adequacy's
// counterexample; nothing smaller fails.
TEST(PerturbativeEnumeration, KillsTimes2KeepsOperandAtSizeSix) {
  const auto r = run("perturbative/times2-keeps-operand", 6);
  const auto row = std::ranges::find(r.rows, "perturbative/adequacy",
                                     [](const props::EnumerationRow& x) { return x.property; });
  ASSERT_NE(row, r.rows.end());
  ASSERT_TRUE(row->first.has_value());
  EXPECT_EQ(row->first->size, 6) << row->first->input;
}

// The paper's rules hold on every input to size 10 for the eleven properties that take part:
// the closed-term ones on the closed terms, the T_x ones and ad-vs-finite-differences on the
// functions (each discards the other family, counted).
TEST(PerturbativeEnumeration, ThePapersRulesPassToTheBound) {
  const auto r = run("", 10);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 11U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input;
    EXPECT_GT(row.checked, 10'000) << row.property;
    EXPECT_GT(row.discards.size(), 0U) << row.property; // the other family's inputs
  }
}

// Mutants the closed terms to size 13 did not kill, killed on the functions λy1:R. M.
// T_y1(ι2 s) keeps only the primal: the smallest pair whose second component carries y1's
// tangent, λy1:R. π2 ⟨y1, y1⟩ (size 7; printed distributed, π2(ι1 y1) + π2(ι2 y1)), has
// derivative 1 by the model and 0 by ⟦T_y1 M⟧.
TEST(PerturbativeEnumeration, KillsInj2DropsTangentAtSizeSeven) {
  const auto c = testing::smallest_counterexample("perturbative", "perturbative/inj2-drops-tangent",
                                                  "perturbative/lemma-5-5", 7);
  EXPECT_EQ(c.size, 7) << c.input;
}

// The ⬦ of Tx-app without its chain-rule term on a β-redex: the smallest β-redex under T_y1,
// λy1:R. (λy2:R. y2) y1 (size 5), loses y1's tangent.
TEST(PerturbativeEnumeration, KillsTxAppAssumesNormalOperandAtSizeFive) {
  const auto c = testing::smallest_counterexample(
      "perturbative", "perturbative/tx-app-assumes-normal-operand", "perturbative/lemma-5-5", 5);
  EXPECT_EQ(c.size, 5) << c.input;
  EXPECT_EQ(c.input, "(\\y1:R. ((\\y2:R. y2) (y1)))");
}

// D(f, 1, a) built as π1 (T f (a, 1)): the identity λy1:R. y1 (size 2, the smallest function)
// gets D = a = 0.5 where its derivative is 1.
TEST(PerturbativeEnumeration, KillsDMacroSlotsSwappedAtSizeTwo) {
  const auto c =
      testing::smallest_counterexample("perturbative", "perturbative/d-macro-slots-swapped",
                                       "perturbative/ad-vs-finite-differences", 2);
  EXPECT_EQ(c.size, 2) << c.input;
  EXPECT_EQ(c.input, "(\\y1:R. y1)");
}

// The model's one untagged ε (spec §5.3 negative control (a)): a nested T whose inner function
// ignores its argument, λy1:R. π1 ((T (λy2:R. y1)) ⟨y1, y1⟩) (size 11), confuses the inner and
// the outer perturbation in the model's 𝒯 of lemma-5-5's right-hand side.
TEST(PerturbativeEnumeration, KillsModelUntaggedAtSizeEleven) {
  const auto c = testing::smallest_counterexample("perturbative", "perturbative/model-untagged",
                                                  "perturbative/lemma-5-5", 11);
  EXPECT_EQ(c.size, 11) << c.input;
}

} // namespace
} // namespace adsem::perturbative::enumeration_test
