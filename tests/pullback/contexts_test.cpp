// pullback's evaluation contexts are entries of the rule book (semantics/pullback/contexts.cpp),
// read by the step function and by the relational decomposition alike, and patched as a rule
// is: the two paper-literal mutants of the contexts and of rule 17 (errata #13 and #12 of the
// spec's register) are patches of the book.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/pullback/frontend.hpp"
#include "properties/pullback/mutants.hpp"
#include "semantics/pullback/contexts.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::pullback::contexts_test {
namespace {

// The productions of C as §3.4 prints them (L359, with V + C for the printed V + C_A and the
// spec's let), in that order, before the rules.
TEST(PullbackContexts, TheBookListsEveryProductionOfCOnce) {
  const std::vector<RuleInfo> book = paper_rules()->infos();
  const std::vector<std::string> productions = {
      "C + P",      "V + C",          "C P",           "V C",       "π_i(C)",    "⟨C,S⟩",
      "⟨V,C⟩",      "f̲(C)",           "𝒥f̲·C",          "(λx.S)*·C", "(λx.C)*·V", "(Ω λy.C_A)·S",
      "(Ω λy.E)·C", "(Ω λy.⟨y,E⟩)·C", "let x = C in N"};
  ASSERT_GE(book.size(), productions.size());
  for (std::size_t i = 0; i < productions.size(); ++i) {
    EXPECT_EQ(book[i].name, productions[i]);
    EXPECT_EQ(book[i].kind, RuleKind::context) << book[i].name;
    EXPECT_FALSE(book[i].unfireable.empty()) << book[i].name; // no step is a context
    if (book[i].name != "let x = C in N") // the spec's [ID] reading of let, not printed
      EXPECT_NE(book[i].citation.find("line 359"), std::string::npos) << book[i].name;
  }
}

std::vector<std::string> trace(const std::string& source, const Rules& rules) {
  RunOptions o;
  o.trace = true;
  o.fuel = 2'000;
  return normalise(parse_closed(source), rules, o).trace;
}

// A patch of a production reaches both readers: without V C the argument of an application is
// never searched, so (λx.x) ((λy.y) 1) substitutes the unevaluated argument (rule 1 at once),
// and the relational reading finds that redex alone, as the step function does.
TEST(PullbackContexts, APatchedProductionChangesTheStepFunctionAndTheDecompositionAlike) {
  const std::string source = "(\\x:R. x) ((\\y:R. y) 1)";
  EXPECT_EQ(trace(source, Rules{})[0], "1: (\\x:R. x) 1");
  BookPatch no_argument;
  no_argument.name = "no V C";
  no_argument.remove("V C");
  const Rules patched{patch_paper_rules(no_argument)};
  EXPECT_EQ(trace(source, patched)[0], "1: (\\y:R. y) 1");
  Machine paper;
  EXPECT_EQ(paper.decompositions(parse_closed(source)), (std::vector<std::vector<int>>{{1}}));
  Machine machine(patched);
  EXPECT_EQ(machine.decompositions(parse_closed(source)), (std::vector<std::vector<int>>{{}}));
}

// V + C_A as printed (erratum #13): the second summand is A-normalised, not evaluated, and the
// sum sticks with a let series in it.
TEST(PullbackContexts, VPlusCAsPrintedANormalisesTheSummandAndSticks) {
  const Rules literal = rules_for("paper-literal-v-plus-c-a");
  const pullback::Run run = normalise(parse_closed("1 + ((\\x:R. x) 2)"), literal);
  EXPECT_EQ(run.rule_counts.at("A*"), 1);
  EXPECT_EQ(run.result->kind, Kind::sum);
  EXPECT_EQ(run.result->kids[1]->kind, Kind::let);
  EXPECT_EQ(print(normalise(parse_closed("1 + ((\\x:R. x) 2)")).result), "3");
}

// cost-reverse-mode (P19) kills it: a stage's dual map now holds a let in its body, which 5⁺ does
// not transpose, so rule 6 composes forward.
TEST(PullbackContexts, CostReverseModeCatchesVPlusCAsPrinted) {
  testing::expect_killed_by(cli::builtin_registry(), "pullback", "paper-literal-v-plus-c-a",
                            "cost-reverse-mode", 300, 20261201);
}

// Rule 17 as printed (erratum #12) leaves the unfolded λ's body out of A-normal form; the
// strategy then A-normalises it itself through (Ω λy.C_A)·S: one A* and one rule 7 more, and the
// same normal form. No property can see the difference (docs/calculi/pullback.md): the survivor
// is expected.
TEST(PullbackContexts, Rule17AsPrintedCostsOneAStarAndOneRule7) {
  const Term t = annotate_zeros(
      parse("((Omega \\y:R. (Omega \\x:R. mult(<x, y>)) @ w) @ om) 3",
            {{"w", one_form(real_type())}, {"om", one_form(one_form(real_type()))}}));
  const pullback::Run paper = normalise(t);
  const pullback::Run literal = normalise(t, rules_for("paper-literal-rule-17-not-a-normal"));
  ASSERT_EQ(paper.rule_counts.at("17"), 1);
  EXPECT_EQ(literal.rule_counts.at("17"), 1);
  EXPECT_EQ(literal.rule_counts.at("A*"), paper.rule_counts.at("A*") + 1);
  EXPECT_EQ(literal.rule_counts.at("7"), paper.rule_counts.at("7") + 1);
  EXPECT_EQ(literal.steps, paper.steps + 2);
  EXPECT_TRUE(alpha_equal(literal.result, paper.result)) << print(literal.result) << "\n"
                                                         << print(paper.result);
}

} // namespace
} // namespace adsem::pullback::contexts_test
