// Errata of seed 002 that are executable without a mutant of the semantics (spec §11): each test
// runs the statement as printed and as corrected. (Errata that are wrong rules ship as
// paper-literal mutants instead: docs/mutants.md.)
#include <string>

#include <gtest/gtest.h>

#include "properties/linear_negation/mutants.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"
#include "syntax/linear_negation/typecheck.hpp"
#include "tests/linear_negation/fig2_backprop.hpp"

namespace adsem::linear_negation::errata_test {
namespace {

// bp(G)[a := 1][x1 := 5][x2 := 2] for Fig. 2's G, normalised by Prop. 12's rules: (9)ⁿ, (10),
// (12), (14), with (13) and (23) (RuleSet::numeric_only, Lemma 7's list) unless `book` lacks them.
linear_negation::Run prop_12_run(const RulesPtr& book) {
  RunOptions o;
  o.rules.numeric_only = true;
  o.book = book;
  return normalise(fixtures::fig2_backprop_at_5_2(), o);
}

// Spec erratum 13: Prop. 12 (L521-533) lists (9)ⁿ, (10), (12), (14) only; without (23) the
// primitive sin of Fig. 2 is never evaluated and the normal form is no numeral tuple. With it
// (bp-soundness's reading) the gradient of E1 comes out, and (13) is not needed.
TEST(LinearNegationErrata, Prop12AsPrintedNeedsRule23ForAPrimitive) {
  RulesPatch printed;
  printed.remove("prim-23");
  const linear_negation::Run as_printed = prop_12_run(patch_paper_rules(printed));
  EXPECT_FALSE(is_numeral_tuple(as_printed.result)) << print(as_printed.result);
  EXPECT_NE(print(as_printed.result).find("sin("), std::string::npos) << print(as_printed.result);

  const linear_negation::Run corrected = prop_12_run(paper_rules());
  const auto out = ground_result(corrected);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[1], -5.466781571308061, 1e-12);
  EXPECT_NEAR(out[2], 5.466781571308061, 1e-12);
  EXPECT_EQ(corrected.rule_counts.count("sum-pair-13"), 0u);
  EXPECT_GT(corrected.rule_counts.at("prim-23"), 0);
}

// Rule (23) as printed (L387-390), f(r1 α1, …, rk αk) → ⟦f⟧(r1,…,rk) α1 … αk, moves its arguments'
// stacks out; a linear ES among them takes the primitive's value as its body, which is linear in
// its variable only when it is 0 (Table 1 (zero)). The enumerated grammar's sin and log show no
// instance (sin(0) = 0, log(0) undefined), so here is cos: the printed rule makes 1[w := 1],
// ill-typed against Prop. 2 (L407); the book's waits for (11) inside the argument.
TEST(LinearNegationErrata, Rule23MovesExponentialStacksOnly) {
  const Term t = parse_term("cos((0)[w:R := 1])", signature());
  ASSERT_FALSE(type_error(t, {}, real_type(), signature()).has_value());
  RunOptions o;
  o.trace = true;
  o.book = rules_for("linear-negation/paper-literal-pair-8-mul-14-prim-23-move-linear-stacks");
  const linear_negation::Run printed = normalise(t, o);
  ASSERT_FALSE(printed.trace.empty());
  EXPECT_EQ(printed.trace.front(), "prim-23: (1)[w:R := 1]");
  EXPECT_TRUE(type_error(parse_term("(1)[w:R := 1]", signature()), {}, real_type(), signature()));

  o.book = paper_rules();
  const linear_negation::Run book = normalise(t, o);
  ASSERT_EQ(book.trace.size(), 2U);
  EXPECT_EQ(book.trace[0], "lin-subst-11: cos(0)");
  EXPECT_EQ(book.trace[1], "prim-23: 1");
}

} // namespace
} // namespace adsem::linear_negation::errata_test
