// Bounded-exhaustive enumeration of perturbative (generators/perturbative/enumeration.hpp,
// properties/perturbative/enumeration.hpp, docs/enumeration.md): the counts of the smallest sizes
// by hand, every term closed and well typed, a mutant killed with a smallest counterexample, and
// the paper's rules passing to the bound (adequacy and SEM-9's strategy agreement).
#include <set>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "generators/perturbative/enumeration.hpp"
#include "properties/core/enumeration.hpp"
#include "semantics/perturbative/constants.hpp"
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

// ⊢ _ : R by hand (numerals 1, -2):
//   size 1: the two numerals                                                           2
//   size 2: none (sin a needs 3 nodes)                                                 0
//   size 3: sin a (2), a + b (2·2)                                                     6
//   size 4: (λy1. b) a with b one of y1, 1, -2 and a a numeral                         6
TEST(PerturbativeEnumeration, CountsOfTheSmallestSizesAreTheHandCounts) {
  EXPECT_EQ(props::enumeration_counts(registry(), "perturbative", 4),
            (std::vector<std::uint64_t>{0, 2, 0, 6, 6}));
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

// The paper's rules hold on every closed term to size 10 for adequacy and strategy agreement.
TEST(PerturbativeEnumeration, ThePapersRulesPassToTheBound) {
  const auto r = run("", 10);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 2U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input;
    EXPECT_GT(row.checked, 10'000) << row.property;
  }
}

} // namespace
} // namespace adsem::perturbative::enumeration_test
