// Bounded-exhaustive enumeration of linear-negation (generators/linear_negation/enumeration.hpp,
// properties/linear_negation/enumeration.hpp, docs/enumeration.md): the counts of the smallest
// sizes by hand, every term closed, well typed by Table 1 and listed once, a mutant of the rule
// book found with a smallest counterexample, and the paper's rules passing to the bound.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "generators/linear_negation/enumeration.hpp"
#include "properties/core/calculus.hpp"
#include "properties/core/enumeration.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"
#include "syntax/linear_negation/typecheck.hpp"
#include "tests/support/enumeration_checks.hpp"

namespace adsem::linear_negation::enumeration_test {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

props::EnumerationResult run(const std::string& mutant, int max_size,
                             std::vector<std::string> properties = {}) {
  props::EnumerationOptions o;
  o.calculus = "linear-negation";
  o.mutant = mutant;
  o.max_size = max_size;
  o.properties = std::move(properties);
  return props::run_enumeration(registry(), o);
}

// A failure of subject reduction on an enumerated term: its size, its text and the reason.
struct Failure {
  int size = 0;
  std::string input, reason;
  // the step after which the term no longer types was one of `rule`
  bool after(const std::string& rule) const {
    return reason.find(" (" + rule + "): type error") != std::string::npos;
  }
};

// Every failure of subject reduction under the mutant ("": the paper's rules) on every term to
// size `bound` (an error, not a failure, fails the test).
std::vector<Failure> subject_reduction_failures(const std::string& mutant, int bound) {
  const props::CalculusEntry& entry = *registry().find("linear-negation");
  const auto p = std::ranges::find(entry.properties, "linear-negation/subject-reduction",
                                   [](const props::PropertyDef& d) { return d.name; });
  std::vector<Failure> out;
  if (p == entry.properties.end()) {
    ADD_FAILURE() << "no subject-reduction";
    return out;
  }
  props::PropertyContext context;
  context.mutant = mutant;
  auto inputs = entry.enumeration(bound);
  for (int n = 1; n <= bound; ++n)
    for (std::uint64_t i = 0; i < inputs->terms(n); ++i) {
      const props::EnumeratedInput in = inputs->input(n, i, 0);
      const props::TrialResult r = p->check_input(context, in.input);
      if (r.kind == props::TrialResult::Kind::pass) continue;
      EXPECT_EQ(r.kind, props::TrialResult::Kind::fail) << in.text() << ": " << r.reason;
      out.push_back(Failure{n, in.text(), r.reason});
    }
  return out;
}

// ⊢ _ : R and ⊢ _ : R × R by hand (numerals 1, -2; 0 only in a linear judgment):
//   size 1: the two numerals                                                              2
//   size 2: sin a, log a                                                                  4
//   size 3: at R, sin and log of the 4 terms of size 2 (8), a * b and a + b (4 + 4),
//           b[y1:!R := a] with b one of y1, 1, -2 (6), b[w1:R := a] with b one of w1, 0 by
//           (ax-lin) and (zero) (4): 26; at R × R the pairs (a, b): 4                       30
// and the source programs x1 ⊢ t : R at a point, of size |t| + 2 (source_enumeration_test.cpp):
//   size 3: t one of x1, 1, -2                                                            3
TEST(LinearNegationEnumeration, CountsOfTheSmallestSizesAreTheHandCounts) {
  EXPECT_EQ(props::enumeration_counts(registry(), "linear-negation", 3),
            (std::vector<std::uint64_t>{0, 2, 4, 30 + 3}));
}

// Every enumerated term is closed, type-checks at its sort's type (Table 1 as spec §3.4 checks
// it), prints as it parses, and is listed once (the grammar is unambiguous: enumeration.hpp).
TEST(LinearNegationEnumeration, EveryTermIsClosedWellTypedAndListedOnce) {
  const int bound = 6;
  gen::TermEnumeration e(gen::EnumGrammar{}, {bound});
  for (const gen::EnumSort& sort : gen::enum_closed_sorts())
    for (int n = 1; n <= bound; ++n) {
      std::set<std::string> seen;
      const std::uint64_t count = e.count(sort, n);
      for (std::uint64_t i = 0; i < count; ++i) {
        const Term t = e.nth(sort, n, i);
        ASSERT_EQ(size_of(t), n) << print(t);
        ASSERT_TRUE(free_variables(t).empty()) << print(t);
        const auto error = type_error(t, {}, sort.type, signature());
        ASSERT_FALSE(error.has_value()) << print(t) << ": " << *error;
        ASSERT_EQ(alpha_key(parse_term(print(t), signature())), alpha_key(t)) << print(t);
        seen.insert(alpha_key(t));
      }
      EXPECT_EQ(seen.size(), count) << print_type(sort.type) << ", size " << n;
    }
}

// Table 2 (L355-367) prints (12), (13) and (17) moving any stack across the other summand; a
// linear ES that crosses it leaves its body non-linear (spec §4.4). The smallest sum with a
// linear ES in a summand has 5 nodes, and subject reduction fails there by (12), at one of the
// two S_rand seeds (the other takes (11) first); nothing smaller fails.
TEST(LinearNegationEnumeration, KillsSumsMovingLinearEsAtTheSmallestSum) {
  const auto r = run("linear-negation/paper-literal-sums-move-linear-es", 5,
                     {"linear-negation/subject-reduction"});
  ASSERT_EQ(r.rows.size(), 1U);
  ASSERT_TRUE(r.rows[0].first.has_value());
  EXPECT_EQ(r.rows[0].first->size, 5) << r.rows[0].first->input;
  EXPECT_EQ(r.rows[0].first->input, "1 + (0)[w1:R := 1] : R");
  EXPECT_NE(r.rows[0].first->reason.find("(sum-12)"), std::string::npos) << r.rows[0].first->reason;
}

// The paper's rules hold on every closed Euclidean term and every source program to size 7 for
// every property that takes part (docs/enumeration.md: to size 8 from the command line),
// subject-reduction included since (8), (9), (10), (14) and (23) move exponential stacks only
// (below): the nine checks of one closed term on thousands of inputs (the two of ≡ on every ≡
// step of each), the eight of a source program (D, bp, forward mode, gradients:
// source_enumeration_test.cpp) on hundreds.
TEST(LinearNegationEnumeration, ThePapersRulesPassToTheBound) {
  const auto r = run("", 7);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), 17U);
  const std::set<std::string> closed_term_checks = {"linear-negation/round-trip",
                                                    "linear-negation/subject-reduction",
                                                    "linear-negation/normal-forms-are-values",
                                                    "linear-negation/normalisation",
                                                    "linear-negation/step-soundness",
                                                    "linear-negation/equivalence-postponement",
                                                    "linear-negation/unique-normal-forms",
                                                    "linear-negation/equivalence-soundness",
                                                    "linear-negation/equivalence-bisimulation"};
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value())
        << row.property << ": " << row.first->input << ": " << row.first->reason;
    EXPECT_GT(row.checked, closed_term_checks.contains(row.property) ? 4'000 : 200) << row.property;
  }
}

// Rules (9) and (10) as Table 2a prints them, C{x}[x := vα] → C{v}[x := v]α and t[x := vα] → tα,
// move the stack α of an exponential ES's content out. When α holds a linear ES [w := u], what
// was outside the content becomes that ES's body, which must be linear in w (Table 1 (let-lin),
// spec §3.3): y1[y1 := w1[w1 := 1]] →(9) w1[y1 := w1][w1 := 1] and (sin(1))[y1 := (0)[w1 := -2]]
// →(10) (sin(1))[w1 := -2] are ill-typed, against Prop. 2 (L407): spec §4.4's caveat, met by (9)
// and (10). The book's entries wait for (11) inside the content; the printed rules are the
// paper-literal mutant, which no random term reaches (gen_lin puts a linear ES in a linear
// judgment only), so its killer is found here: at size 5, the smallest such content, and to size
// 6 every failure of subject reduction is one of these two steps.
TEST(LinearNegationEnumeration, KillsSubstAndGcMovingLinearStacksAtSizeFive) {
  const std::string mutant = "linear-negation/paper-literal-subst-9-gc-10-move-linear-stacks";
  const auto r = run(mutant, 5, {"linear-negation/subject-reduction"});
  ASSERT_EQ(r.rows.size(), 1U);
  ASSERT_TRUE(r.rows[0].first.has_value());
  EXPECT_EQ(r.rows[0].first->size, 5) << r.rows[0].first->input;
  EXPECT_EQ(r.rows[0].first->input, "(y1)[y1:!R := (w1)[w1:R := 1]] : R");
  EXPECT_NE(r.rows[0].first->reason.find("(subst-9): type error"), std::string::npos)
      << r.rows[0].first->reason;

  const std::vector<Failure> failures = subject_reduction_failures(mutant, 6);
  EXPECT_FALSE(failures.empty());
  for (const Failure& f : failures)
    EXPECT_TRUE(f.after("subst-9") || f.after("gc-10")) << f.input << ": " << f.reason;
  const bool gc = std::ranges::any_of(failures, [](const Failure& f) { return f.after("gc-10"); });
  EXPECT_TRUE(gc); // (10) too, not (9) alone
}

// Enumerated, equivalence-soundness and equivalence-bisimulation check every ≡ step of a term,
// not one drawn: (19) t[x := u][y := w] ≡ t[x := u[y := w]] taken although y ∈ fv(t) leaves y
// unbound at size 5, the smallest term with two ES where the outer one's variable is used.
TEST(LinearNegationEnumeration, KillsEquivalence19IgnoringScopeAtSizeFive) {
  const auto c = testing::smallest_counterexample("linear-negation",
                                                  "linear-negation/equivalence-19-ignores-scope",
                                                  "linear-negation/equivalence-soundness", 5);
  EXPECT_EQ(c.input, "(y1)[y2:!R := y1][y1:!R := 1] : R");
  EXPECT_NE(c.reason.find("equiv-19 broke typing"), std::string::npos) << c.reason;
}

// Rules (8) s[⟨x,y⟩ := ⟨t,u⟩α] → s[x := t][y := u]α and (14) r α · q β → (r·q) α β as Table 2a
// prints them move stacks out too, and a linear ES they move leaves its variable outside its
// linear judgment the same way: ((w1, w1))[w1 := 1] as the content of a pattern ES puts w1 in the
// exponential ES [y1 := w1] (spec §3.3), and (0)[w1 := 1] * (0)[w1 := 1] stacks a linear ES over
// one whose content is not linear in its variable (spec §4.4's caveat, met by (8), (14) and (23);
// the grammar's primitives other than mul, sin and log, give no instance of (23): sin(0) = 0 is
// linear, log(0) undefined). The book's entries wait for (11); the printed rules are the
// paper-literal mutant, which no random term reaches, killed here at size 7, where every failure
// of subject reduction is one of these two steps, and nothing smaller fails.
TEST(LinearNegationEnumeration, KillsPairsAndProductsMovingLinearStacksAtSizeSeven) {
  const std::string mutant =
      "linear-negation/paper-literal-pair-8-mul-14-prim-23-move-linear-stacks";
  long eight = 0, fourteen = 0;
  for (const Failure& f : subject_reduction_failures(mutant, 7)) {
    EXPECT_EQ(f.size, 7) << f.input << ": " << f.reason;
    if (f.after("pair-8"))
      ++eight;
    else if (f.after("mul-14"))
      ++fourteen;
    else
      ADD_FAILURE() << f.input << ": " << f.reason;
  }
  EXPECT_EQ(eight, 32);
  EXPECT_EQ(fourteen, 12);

  const auto r = run(mutant, 7, {"linear-negation/subject-reduction"});
  ASSERT_EQ(r.rows.size(), 1U);
  ASSERT_TRUE(r.rows[0].first.has_value());
  EXPECT_EQ(r.rows[0].first->input, "(0)[w1:R := 1] * (0)[w1:R := 1] : R");
  EXPECT_NE(r.rows[0].first->reason.find("(mul-14): type error"), std::string::npos)
      << r.rows[0].first->reason;
}

} // namespace
} // namespace adsem::linear_negation::enumeration_test
