// Bounded-exhaustive enumeration of pullback (generators/pullback/enumeration.hpp,
// properties/pullback/enumeration.hpp, docs/enumeration.md): the counts of the smallest sizes by
// hand, every term closed, well typed (strict lin) and listed once, every source body well typed
// and listed once, mutants killed with a smallest counterexample (through g's square Jacobian by
// the reverse-mode properties too, and a lost binding of A* by the ANF properties on the source
// bodies), and the paper's rules passing to the bound.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "generators/pullback/enumeration.hpp"
#include "properties/core/enumeration.hpp"
#include "properties/pullback/enumeration.hpp"
#include "semantics/pullback/tape.hpp"
#include "support/enumeration_checks.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::enumeration_test {
namespace {

props::EnumerationResult run(const std::string& mutant, std::vector<std::string> properties,
                             int max_size) {
  return testing::enumerate("pullback", mutant, std::move(properties), max_size);
}

// The smallest counterexample of one property under a mutant to size max_size (none: size 0).
props::EnumerationCounterexample smallest(const std::string& mutant, const std::string& property,
                                          int max_size) {
  return testing::smallest_counterexample("pullback", mutant, property, max_size);
}

// That counterexample is of this size and this input.
void expect_smallest(const std::string& mutant, const std::string& property, int size,
                     const std::string& input) {
  testing::expect_smallest_counterexample("pullback", mutant, property, size, input);
}

// The nodes a term is listed under: size_of, a sum of k summands counting k - 1 nodes of +.
std::size_t listed_size(const Term& t) {
  std::size_t n = size_of(t);
  const std::function<void(const Term&)> walk = [&](const Term& u) {
    if (u->kind == Kind::sum) n = n + u->kids.size() - 2;
    for (const Term& k : u->kids)
      walk(k);
  };
  walk(t);
  return n;
}

bool has_lambda(const Term& t) {
  return t->kind == Kind::lam ||
         std::any_of(t->kids.begin(), t->kids.end(), [](const Term& k) { return has_lambda(k); });
}

// ⊢ _ : R and ⊢ _ : R*, by hand (numerals 1, -2; [1]* and 0 at R*):
//   size 1: 1, -2; [1]*, 0                                                                 4
//   size 2: sin a for a numeral a (mult, projections, sums, applications and dual maps
//           need at least 3 nodes)                                                         2
//   size 3: sin (sin a) (2), a + b for numerals a, b (4); c + d for c, d among [1]*, 0 (4),
//           (λy1:R. S)*·c with S = y1 or 0 (linear in y1) and c among [1]*, 0 (4); an
//           application needs a λ or a Jacobian of 2 nodes: 4 at least; g ⟨a, b⟩ is at R × R
//           and needs 4 nodes, 5 under mult or a projection                                14
// The queries of source bodies start at size 6 (a frame of 5 nodes at σ = R, 7 at R × R):
//   size 6: the bodies y1, 1, -2 of y1:R ⊢ _ : R                                          3
//   size 7: sin y1, sin 1, sin -2 (a sum, pair, let or β-redex needs 3 nodes)             3
// (sizes 4 to 10: 40, 164, 524 + 3, 2574 + 3, 9724 + 36, 43932 + 138, 194948 + 857 closed terms
// + queries, as an independent transcription of the grammar counts them.)
TEST(PullbackEnumeration, CountsOfTheSmallestSizesAreTheHandCounts) {
  EXPECT_EQ(props::enumeration_counts(testing::builtin_registry(), "pullback", 7),
            (std::vector<std::uint64_t>{0, 4, 2, 14, 40, 164, 527, 2577}));
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
        ASSERT_EQ(listed_size(m), static_cast<std::size_t>(n)) << print(m);
        seen.insert(print(m));
      }
      EXPECT_EQ(seen.size(), count) << "size " << n;
      total += static_cast<long>(count);
    }
  EXPECT_EQ(total,
            13046); // the closed terms of `adsem enumerate pullback -k 8` (docs/enumeration.md)
}

// Every source body y1:σ ⊢ P : τ is well typed, has only y1 free, has the size it is listed
// under, is listed once, and is straight-line (what the tape reads) exactly when it has no λ.
TEST(PullbackEnumeration, EverySourceBodyIsWellTypedOfItsSizeAndDistinct) {
  const int bound = 6;
  gen::TermEnumeration e(gen::EnumGrammar{}, {bound});
  std::vector<long> totals;
  for (const QueryShape& shape : enumeration_query_shapes()) {
    const gen::EnumSort sort = gen::enum_body_sort(shape.sigma, shape.tau);
    long total = 0;
    for (int n = 1; n <= bound; ++n) {
      std::set<std::string> seen;
      const std::uint64_t count = e.count(sort, n);
      for (std::uint64_t i = 0; i < count; ++i) {
        const Term p = e.nth(sort, n, i);
        for (const std::string& x : free_vars(p))
          ASSERT_EQ(x, "y1") << print(p);
        const Term query = lam("y1", shape.sigma, p);
        const auto error = type_error(query);
        ASSERT_FALSE(error.has_value()) << print(p) << ": " << *error;
        ASSERT_TRUE(same_type(typecheck(query), arrow(shape.sigma, shape.tau))) << print(p);
        ASSERT_EQ(listed_size(p), static_cast<std::size_t>(n)) << print(p);
        EXPECT_EQ(is_straight_line(p), !has_lambda(p)) << print(p);
        seen.insert(print(p));
      }
      EXPECT_EQ(seen.size(), count) << "size " << n;
      total += static_cast<long>(count);
    }
    totals.push_back(total);
  }
  // (R, R), (R, R × R), (R × R, R), (R × R, R × R), as the independent transcription counts them
  EXPECT_EQ(totals, (std::vector<long>{4260, 1512, 4052, 1690}));
}

// Row 9 (y ∉ FV(E)) giving the covector of ones: the smallest gradient query with a constant
// body, ((Ω λy1:R. 1)·(λy1:R. [1]*)) 1 at size 6, is adequacy's counterexample, found without
// shrinking; nothing smaller fails (no query has fewer than 6 nodes).
TEST(PullbackEnumeration, KillsConstantPullbackNonzeroWithTheSmallestQuery) {
  expect_smallest("pullback/constant-pullback-nonzero", "pullback/adequacy", 6,
                  "((Omega \\y1:R. 1) @ (\\y1:R. [1]^*)) 1");
}

// The rule sets as printed: A* firing on a final body gives the smallest query, of size 6, two
// decompositions (erratum #6); without the zero rules (erratum #9) the smallest Jacobian at a
// zero, (λy1. (𝒥sin·0) 1)*·[1]*, steps (rule 4) to a dual map whose body types no more.
TEST(PullbackEnumeration, KillsThePaperLiteralRuleSetsAtSizeSix) {
  const auto overlap =
      smallest("pullback/paper-literal-a-contexts-overlap", "pullback/unique-decomposition", 6);
  EXPECT_EQ(overlap.size, 6) << overlap.input;
  const auto zeros =
      smallest("pullback/paper-literal-no-zero-rules", "pullback/subject-reduction", 6);
  EXPECT_EQ(zeros.size, 6) << zeros.input;
}

// The smooth pullback's transpose (rules 5/5⁺, L363, L385) taken as 𝒥(f)(r) itself: only a
// square, asymmetric Jacobian tells them apart, g's (Ex. 3.1). The smallest queries through g are
// of size 9, bodies g⟨a, b⟩ at y1:R (τ = R × R, c = (1, 1)). g⟨y1, y1⟩ comes first and passes
// (at (0.5, 0.5) the column sums of 𝒥g and the row sums agree, 3 + 1 = 1 + 3); g⟨1, y1⟩ =
// (2, 2 + y1²) does not: the model's cᵀJ is 2·y1 = 1, the mutant's reduction 3.
TEST(PullbackEnumeration, KillsJNotJTWithTheSmallestQueryThroughG) {
  expect_smallest("pullback/smooth-pullback-uses-J-not-JT", "pullback/reverse-mode-first-order", 9,
                  "((Omega \\y1:R. g(<1, y1>)) @ (\\u:R * R. [1, 1]^*)) 0.5");
}

// Row 9 giving the covector of ones, seen by reverse mode itself: the smallest query of a source
// body, the constant body 1 at size 6 (y1, listed before it, is not constant).
TEST(PullbackEnumeration, ReverseModeKillsConstantPullbackNonzeroAtSizeSix) {
  expect_smallest("pullback/constant-pullback-nonzero", "pullback/reverse-mode-first-order", 6,
                  "((Omega \\y1:R. 1) @ (\\u:R. [1]^*)) 0.5");
}

// The rule set as printed without 5⁺ gives right gradients (the closed-term properties hold under
// it) but not the paper's cost: on the smallest query, body y1, no transpose fires for its one
// stage (Ex. 3.7 (⋆)).
TEST(PullbackEnumeration, CostReverseModeKillsRuleFiveOnlyAtSizeSix) {
  expect_smallest("pullback/paper-literal-rule-5-only", "pullback/cost-reverse-mode", 6,
                  "((Omega \\y1:R. y1) @ (\\u:R. [1]^*)) 0.5");
}

// A* losing the final binding z = E of ANF(P) = let B; z = E in z (the series ends one stage early,
// returning the value of the stage before when it has z's type), seen by the ANF properties on
// the source bodies. Bodies of one stage (y1, 1, -2 at size 6) are left as they are.
// soundness-of-anf at size 7: sin y1, the first body of size 2, has one stage in compact ANF but
// two in literal ANF (let z1 = y1 in let z2 = sin(z1) in z2, cut to let z1 = y1 in z1: ⟦·⟧ is y1,
// not sin y1). anf-shape at size 8: ANF(P) cut once is still a final let series, so a failure
// needs a body of three stages, whose cut ANF of two stages ANF cuts again (not idempotent):
// sin(sin(1)), with compact ANF let z1 = 1; z2 = sin(z1); z3 = sin(z2) in z3, cut to z1, z2 in z2.
TEST(PullbackEnumeration, AnfPropertiesKillAnfDropsFinalBindingAtSizesSevenAndEight) {
  expect_smallest("pullback/anf-drops-final-binding", "pullback/soundness-of-anf", 7,
                  "((Omega \\y1:R. sin(y1)) @ (\\u:R. [1]^*)) 0.5");
  expect_smallest("pullback/anf-drops-final-binding", "pullback/anf-shape", 8,
                  "((Omega \\y1:R. sin(sin(1))) @ (\\u:R. [1]^*)) 0.5");
}

// anf-shape and soundness-of-anf check every query's source body (180 to size 9); a closed term
// has none, a counted discard, never a pass.
TEST(PullbackEnumeration, AnfPropertiesTakePartOnTheSourceBodiesToSizeNine) {
  const auto r = run("", {"anf-shape", "soundness-of-anf"}, 9);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 2U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input << "\n"
                                        << row.first->reason;
    EXPECT_EQ(row.checked, 180) << row.property;
    EXPECT_EQ(row.passed, 180) << row.property;
    EXPECT_EQ(row.discards, (std::map<std::string, long>{{"no-source-program", 56978}}))
        << row.property;
  }
}

// The paper's rules hold on every input to size 8 for every property that takes part.
TEST(PullbackEnumeration, ThePapersRulesPassToTheBound) {
  const auto r = run("", {}, 8);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 17U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input << "\n"
                                        << row.first->reason;
    EXPECT_GT(row.checked, 10) << row.property; // the 42 queries; dot-product-test: 339, ...
  }
}

// The reverse-mode properties on every query to size 10 (1,037 queries: bodies to 5 nodes at
// σ = R, 3 at σ = R × R; the closed terms are unranked and discarded). Size 11 (5,960 queries)
// holds too, in about 6 s.
TEST(PullbackEnumeration, ThePapersRulesPassOnEveryQueryToSizeTen) {
  const auto r = run("",
                     {"reverse-mode-first-order", "reverse-mode-vs-finite-differences",
                      "reverse-mode-vs-intervals", "tape-agreement", "cost-reverse-mode"},
                     10);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 5U);
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value()) << row.property << ": " << row.first->input << "\n"
                                        << row.first->reason;
    EXPECT_GT(row.checked, 900) << row.property; // straight-line: 989
  }
}

} // namespace
} // namespace adsem::pullback::enumeration_test
