// Bounded-exhaustive enumeration of pullback (generators/pullback/enumeration.hpp,
// properties/pullback/enumeration.hpp, docs/enumeration.md): the counts of the smallest sizes by
// hand, every term closed, well typed (strict lin) and listed once, a mutant killed with a
// smallest counterexample, and the paper's rules passing to the bound.
#include <functional>
#include <set>

#include <gtest/gtest.h>

#include "generators/pullback/enumeration.hpp"
#include "properties/core/enumeration.hpp"
#include "support/enumeration_checks.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::enumeration_test {
namespace {

props::EnumerationResult run(const std::string& mutant, std::vector<std::string> properties,
                             int max_size) {
  return testing::enumerate("pullback", mutant, std::move(properties), max_size);
}

// ⊢ _ : R and ⊢ _ : R*, by hand (numerals 1, -2; [1]* and 0 at R*):
//   size 1: 1, -2; [1]*, 0                                                                 4
//   size 2: sin a for a numeral a (mult, projections, sums, applications and dual maps
//           need at least 3 nodes)                                                         2
//   size 3: sin (sin a) (2), a + b for numerals a, b (4); c + d for c, d among [1]*, 0 (4),
//           (λy1:R. S)*·c with S = y1 or 0 (linear in y1) and c among [1]*, 0 (4); an
//           application needs a λ or a Jacobian of 2 nodes: 4 at least                    14
TEST(PullbackEnumeration, CountsOfTheSmallestSizesAreTheHandCounts) {
  EXPECT_EQ(props::enumeration_counts(testing::builtin_registry(), "pullback", 3),
            (std::vector<std::uint64_t>{0, 4, 2, 14}));
}

// Every enumerated term is closed, type-checks (strict lin: source terms) at R or R*, has the
// size it is listed under (a sum of k summands counting k - 1 nodes of +), and is listed once.
TEST(PullbackEnumeration, EveryTermIsClosedWellTypedOfItsSizeAndDistinct) {
  const int bound = 8;
  gen::TermEnumeration e(gen::EnumGrammar{}, {bound});
  long total = 0;
  for (const gen::EnumSort& sort : gen::enum_closed_sorts())
    for (int n = 1; n <= bound; ++n) {
      std::set<std::string> seen;
      const std::uint64_t count = e.count(sort, n);
      for (std::uint64_t i = 0; i < count; ++i) {
        const Term m = e.nth(sort, n, i);
        ASSERT_TRUE(free_vars(m).empty()) << print(m);
        const auto error = type_error(m);
        ASSERT_FALSE(error.has_value()) << print(m) << ": " << *error;
        ASSERT_TRUE(same_type(typecheck(m), sort.type)) << print(m);
        std::size_t summands = 0, sums = 0;
        const std::function<void(const Term&)> walk = [&](const Term& u) {
          if (u->kind == Kind::sum) {
            ++sums;
            summands += u->kids.size();
          }
          for (const Term& k : u->kids)
            walk(k);
        };
        walk(m);
        ASSERT_EQ(size_of(m) + summands - 2 * sums, static_cast<std::size_t>(n)) << print(m);
        seen.insert(print(m));
      }
      EXPECT_EQ(seen.size(), count) << "size " << n;
      total += static_cast<long>(count);
    }
  EXPECT_EQ(total, 11384); // as `adsem enumerate pullback -k 8 --counts` and docs/enumeration.md
}

// Row 9 (y ∉ FV(E)) giving the covector of ones: the smallest gradient query with a constant
// body, ((Ω λy1:R. 1)·(λy1:R. [1]*)) 1 at size 6, is adequacy's counterexample, found without
// shrinking; nothing smaller fails (no query has fewer than 6 nodes).
TEST(PullbackEnumeration, KillsConstantPullbackNonzeroWithTheSmallestQuery) {
  const auto r = run("pullback/constant-pullback-nonzero", {"pullback/adequacy"}, 6);
  ASSERT_EQ(r.rows.size(), 1U);
  ASSERT_TRUE(r.rows[0].first.has_value());
  EXPECT_EQ(r.rows[0].first->size, 6) << r.rows[0].first->input;
  EXPECT_EQ(r.rows[0].first->input, "((Omega \\y1:R. 1) @ (\\y1:R. [1]^*)) 1");
}

// The rule sets as printed: A* firing on a final body gives the smallest query, of size 6, two
// decompositions (erratum #6); without the zero rules (erratum #9) the smallest Jacobian at a
// zero, (λy1. (𝒥sin·0) 1)*·[1]*, steps (rule 4) to a dual map whose body types no more.
TEST(PullbackEnumeration, KillsThePaperLiteralRuleSetsAtSizeSix) {
  const auto overlap =
      run("pullback/paper-literal-a-contexts-overlap", {"pullback/unique-decomposition"}, 6);
  ASSERT_EQ(overlap.rows.size(), 1U);
  ASSERT_TRUE(overlap.rows[0].first.has_value());
  EXPECT_EQ(overlap.rows[0].first->size, 6) << overlap.rows[0].first->input;
  const auto zeros = run("pullback/paper-literal-no-zero-rules", {"pullback/subject-reduction"}, 6);
  ASSERT_EQ(zeros.rows.size(), 1U);
  ASSERT_TRUE(zeros.rows[0].first.has_value());
  EXPECT_EQ(zeros.rows[0].first->size, 6) << zeros.rows[0].first->input;
}

// The paper's rules hold on every input to size 8 for every property that takes part.
TEST(PullbackEnumeration, ThePapersRulesPassToTheBound) {
  const auto r = run("", {}, 8);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 10U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input << "\n"
                                        << row.first->reason;
    EXPECT_GT(row.checked, 100) << row.property; // dot-product-test: 339, jacobian-bodies: 144
  }
}

} // namespace
} // namespace adsem::pullback::enumeration_test
