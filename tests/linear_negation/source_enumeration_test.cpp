// Bounded-exhaustive enumeration of linear-negation's source programs (the second family of
// properties/linear_negation/enumeration.hpp; docs/enumeration.md, "Source programs"): the counts
// of the smallest sizes by hand, every body a well-typed program of Λ(F), the mutants of D, of the
// read-back and of Prop. 1's seeding killed with a smallest counterexample, and the paper's
// definitions passing to the bound.
#include <any>
#include <set>

#include <gtest/gtest.h>

#include "generators/linear_negation/enumeration.hpp"
#include "generators/linear_negation/terms.hpp"
#include "properties/core/calculus.hpp"
#include "properties/core/enumeration.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "support/enumeration_checks.hpp"
#include "syntax/linear_negation/printer.hpp"
#include "syntax/linear_negation/typecheck.hpp"

namespace adsem::linear_negation::source_enumeration_test {
namespace {

const props::Registry& registry() {
  return testing::builtin_registry();
}

props::EnumerationResult run(const std::string& mutant, int max_size,
                             std::vector<std::string> properties) {
  for (std::string& p : properties)
    p = "linear-negation/" + p;
  return testing::enumerate("linear-negation", mutant.empty() ? "" : "linear-negation/" + mutant,
                            std::move(properties), max_size);
}

// The properties of source programs (D, bp, D→, Lemma 7, Cor. 16, complexity).
const std::vector<std::string> source_properties = {
    "d-typing",   "d-size",       "d-semantics",       "gradient-soundness",
    "complexity", "bp-soundness", "forward-soundness", "numeric-administration"};

// x1 ⊢ _ : R and x1, x2 ⊢ _ : R by hand (Λ(F): numerals 1, -2; sin, log, mul; sums at R; binder
// types R, R × R, R → R), with V the n inputs and numerals (3 or 4 leaves):
//   size 1: the leaves                                                              3 | 4
//   size 2: sin a, log a                                                            6 | 8
//   size 3: sin and log of size 2 (12 | 16), a * b and a + b (18 | 32), b[y1:!R := a]
//           with b a leaf or y1 (12 | 20); no let of R × R or R → R (their contents
//           have 3 and 2 nodes at least), no application (4 at least)                42 | 68
TEST(LinearNegationSourceEnumeration, CountsOfTheSmallestSizesAreTheHandCounts) {
  gen::TermEnumeration e(gen::EnumGrammar{}, {3});
  const std::vector<std::uint64_t> one = {3, 6, 42}, two = {4, 8, 68};
  for (int n = 1; n <= 3; ++n) {
    EXPECT_EQ(e.count(gen::enum_source_sort(1), n), one[n - 1]) << "x1, size " << n;
    EXPECT_EQ(e.count(gen::enum_source_sort(2), n), two[n - 1]) << "x1, x2, size " << n;
  }
  // a program's size is |t| + 2n (t[x1 := r1]…): the one-input bodies from size 3, the
  // two-input ones from 5, beside the closed terms (2, 4, 30, 152, 1040)
  EXPECT_EQ(props::enumeration_counts(registry(), "linear-negation", 5),
            (std::vector<std::uint64_t>{0, 2, 4, 30 + 3, 152 + 6, 1040 + 42 + 4}));
}

// Every body is a source program: it type-checks in x1..xn at R in the source mode (no linear
// rule, spec §3.5) and is listed once.
TEST(LinearNegationSourceEnumeration, EveryBodyIsAWellTypedSourceProgramListedOnce) {
  const int bound = 5;
  gen::TermEnumeration e(gen::EnumGrammar{}, {bound});
  for (const int inputs : {1, 2}) {
    const gen::EnumSort sort = gen::enum_source_sort(inputs);
    Context gamma;
    for (const auto& [x, a] : sort.gamma)
      gamma[x] = a;
    for (int n = 1; n <= bound; ++n) {
      std::set<std::string> seen;
      const std::uint64_t count = e.count(sort, n);
      for (std::uint64_t i = 0; i < count; ++i) {
        const Term t = e.nth(sort, n, i);
        ASSERT_EQ(size_of(t), n) << print(t);
        const auto error =
            type_error(t, gamma, real_type(), signature(), std::nullopt, {.source = true});
        ASSERT_FALSE(error.has_value()) << print(t) << ": " << *error;
        seen.insert(alpha_key(t));
      }
      EXPECT_EQ(seen.size(), count) << inputs << " inputs, size " << n;
    }
  }
}

// The smallest counterexample of `property` under `mutant` is of this size and this input.
void expect_killed_at(const std::string& mutant, const std::string& property, int size,
                      const std::string& input) {
  testing::expect_smallest_counterexample("linear-negation", "linear-negation/" + mutant,
                                          "linear-negation/" + property, size, input);
}

// D(t·u) without y'(x·a) (Table 3b, L460): the smallest product of a
// non-constant factor, x1 * x1 at 0.5 (size 5): the gradient is read back as 0.5, not 1, and
// d-semantics finds W·∇F(r) halved. Nothing of size 4 (sin x1, log x1, …) has a product.
TEST(LinearNegationSourceEnumeration, KillsDMulDropsProductTermAtTheSmallestProduct) {
  expect_killed_at("d-mul-drops-product-term", "gradient-soundness", 5,
                   "x1 |- x1 * x1 at x1 = 0.5");
  expect_killed_at("d-mul-drops-product-term", "d-semantics", 5, "x1 |- x1 * x1 at x1 = 0.5");
}

// D(t[x := u]) with x̂ bound to ⟨k, λa. 0⟩ (Table 3b, L456-458): the smallest let,
// y1[y1 := x1] at 0.5 (size 5): gradient 0, not 1.
TEST(LinearNegationSourceEnumeration, KillsDLetDropsBackpropagatorAtTheSmallestLet) {
  expect_killed_at("d-let-drops-backpropagator", "gradient-soundness", 5,
                   "x1 |- (y1)[y1:!R := x1] at x1 = 0.5");
}

// Read-back A credits coordinate j+1 (Cor. 16, L562-566): the smallest program with two inputs,
// x1, x2 ⊢ x1, whose gradient (1, 0) is read back as (0, 1) (with one input the rotation is the
// identity: no one-input program shows it).
TEST(LinearNegationSourceEnumeration, KillsGradientReadFromWrongComponentAtTwoInputs) {
  expect_killed_at("gradient-read-from-wrong-component", "gradient-soundness", 5,
                   "x1, x2 |- x1 at x1 = 0.5, x2 = 1.5");
}

// Prop. 1 as printed (L140-142) seeds every input with tangent 1: x1, x2 ⊢ x1 gives ∂2 = 1, not 0.
TEST(LinearNegationSourceEnumeration, KillsProp1SeedingEveryInputAtTwoInputs) {
  expect_killed_at("paper-literal-prop1-seed", "forward-soundness", 5,
                   "x1, x2 |- x1 at x1 = 0.5, x2 = 1.5");
}

// The paper's definitions hold on every source program to size 7 (one-input bodies of 5 nodes,
// two-input ones of 3) for every property of source programs, each checking some.
TEST(LinearNegationSourceEnumeration, ThePapersDefinitionsPassToTheBound) {
  const auto r = run("", 7, source_properties);
  EXPECT_TRUE(r.complete);
  ASSERT_EQ(r.rows.size(), source_properties.size());
  for (const props::EnumerationRow& row : r.rows) {
    EXPECT_FALSE(row.first.has_value())
        << row.property << ": " << row.first->input << ": " << row.first->reason;
    EXPECT_GT(row.checked, 100) << row.property;
  }
}

// The closed-term properties check a source program at its point, t[x1 := r1]…[xn := rn]
// (Source::closed()), beside the closed terms: they hold on every program to size 7 (1,979).
TEST(LinearNegationSourceEnumeration, ClosedTermPropertiesHoldOnTheProgramsAtTheirPoints) {
  const int bound = 7;
  const std::set<std::string> closed = {
      "round-trip",     "subject-reduction",        "normal-forms-are-values", "normalisation",
      "step-soundness", "equivalence-postponement", "unique-normal-forms"};
  const props::CalculusEntry& entry = *registry().find("linear-negation");
  const auto inputs = entry.enumeration(bound);
  gen::TermEnumeration terms(gen::EnumGrammar{}, {bound});
  const props::PropertyContext context;
  std::uint64_t programs = 0;
  for (int n = 1; n <= bound; ++n) {
    std::uint64_t first = 0; // the closed terms come first in each size
    for (const gen::EnumSort& s : gen::enum_closed_sorts())
      first += terms.count(s, n);
    for (std::uint64_t i = first; i < inputs->terms(n); ++i) {
      const props::EnumeratedInput in = inputs->input(n, i, 0);
      ASSERT_NE(std::any_cast<gen::Source>(&in.input), nullptr) << in.text();
      ++programs;
      for (const props::PropertyDef& p : entry.properties)
        if (closed.count(p.name.substr(p.name.find('/') + 1)) > 0) {
          const props::TrialResult r = p.check_input(context, in.input);
          EXPECT_TRUE(r.kind == props::TrialResult::Kind::pass ||
                      r.kind == props::TrialResult::Kind::discard)
              << p.name << ": " << in.text() << ": " << r.reason;
        }
    }
  }
  EXPECT_EQ(programs, 1979U);
}

} // namespace
} // namespace adsem::linear_negation::source_enumeration_test
