// Errata of seed 002 that are executable without a mutant of the semantics (spec §11): each test
// runs the statement as printed and as corrected. (Errata that are wrong rules ship as
// paper-literal mutants instead: docs/mutants.md.)
#include <string>

#include <gtest/gtest.h>

#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"
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

} // namespace
} // namespace adsem::linear_negation::errata_test
