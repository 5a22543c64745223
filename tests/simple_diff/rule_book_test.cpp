// simple-diff's rule book (semantics/simple_diff/rules.cpp): no entry is decoration (removing
// it from a copy changes the trace of some term), the semantics name no rule outside the book and
// no mutant at all, and `adsem calculi --json` lists the book with citations and kinds.
#include <algorithm>

#include <gtest/gtest.h>

#include "properties/simple_diff/mutants.hpp"
#include "semantics/simple_diff/run.hpp"
#include "tests/support/rule_book_checks.hpp"

namespace adsem::simple_diff::rule_book_test {
namespace {

// Terms on which, together, every fireable rule of the book fires (in one mode or the other).
const std::vector<std::string> probes = {
    "1 + 2",
    "let y:real = 3 in y * y",
    "fst(<1, 2>) + snd(<3, 4>)",
    "<1 + 1, 2>",
    "if 2 < 1 then 5 else 7",
    "if 1 < 2 then 5 else 7",
    "if true then 1 else 2",
    "letrec f(x:real):real = x * 2 in f(3)",
    "letrec[2] f(x:real):real = x * 2 in f(3)",
    "letrec[0] f(x:real):real = x * 2 in f(3)",
    "grad[<3, 4>](x:real^2. fst(x) * snd(x))",
    "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))",
    "grad[3](x:real. let y:real = x * x in y * y)",
    "2.rd[<1, <2, 3>>](x:real * (real * real). fst(x))",
    "<2, 5>.rd[<1, <2, 3>>](x:real * (real * real). snd(x))",
    "<1, 2>.rd[<3, 4>](x:real^2. <fst(x) * snd(x), fst(x) + snd(x)>)",
    "().rd[3](x:real. ())",
    "4.rd[1](x:real. 3)",
    "grad[5](x:real. if x + 1 < 0 then x * 2 else x)",
    "grad[-5](x:real. if x + 1 < 0 then x * 2 else x)",
    "grad[0.5](x:real. exp(sin(x)))",
    "letrec pow(p: real * real): real = if snd(p) < 0.5 then 1 else fst(p) * pow(<fst(p), snd(p) - "
    "1>) in grad[<2, 3>](q:real^2. pow(q))",
    "letrec[4] pow(p: real * real): real = if snd(p) < 0.5 then 1 else fst(p) * pow(<fst(p), "
    "snd(p) - 1>) in grad[<2, 3>](q: real * real. pow(q))",
    "letrec[3] pow(p: real * real): real = if snd(p) < 0.5 then 1 else fst(p) * pow(<fst(p), "
    "snd(p) - 1>) in grad[<2, 3>](q: real * real. pow(q))",
    "letrec f(x:real):real = 1.rd[1](y:real. x + y) in 1.rd[1](x:real. x + f(x))",
    "letrec f(x:real):real = if x < 1 then x * x else 1.rd[0.5 * x](y:real. f(y)) in f(3)",
    "grad[2](x:real. log(x))",
    "grad[4](x:real. sqrt(x))",
    "grad[1](x:real. if true then x * x else x)",
    "grad[1](x:real. let p:real*real = <x, x * x> in fst(p) + snd(p))",
    "letrec g(y:real):real = y + 1 in letrec f(x:real):real = g(x) * 2 in letrec g(y:real):real = "
    "y * 100 in f(1)",
    "letrec g(y:real):real = y + 1 in letrec f(x:real):real = g(x) * 2 in letrec g(y:real):real = "
    "y * 100 in grad[1](x:real. f(x))",
    "letrec[3] g(y:real):real = y + 1 in letrec[3] f(x:real):real = g(x) * 2 in letrec[3] "
    "g(y:real):real = y * 100 in grad[1](x:real. f(x))",
    "letrec[2] f(x:real):real = x * x in grad[3](y:real. f(y))",
    "grad[2](x:real. letrec f(y:real):real = y * y in f(x))",
    "grad[2](x:real. letrec[2] f(y:real):real = y * y in f(x))",
};

// What a run shows: each step "rule: redex" and the value, or the error it stopped with.
std::vector<std::string> observe(const Term& m, const Options& options) {
  std::vector<std::string> lines;
  try {
    const Outcome out = evaluate(m, options);
    for (const TraceLine& t : out.trace)
      lines.push_back(t.rule + ": " + t.detail);
    lines.push_back("value " + print_value(out.value));
  } catch (const AdsemError& e) {
    lines.push_back(std::string("error ") + e.what());
  }
  return lines;
}

Options traced(DiffMode diff) {
  Options o;
  o.diff = diff;
  o.record_trace = true;
  o.fuel = 200'000;
  return o;
}

TEST(SimpleDiffRuleBook, RemovingAnyEntryChangesTheTraceOfSomeTerm) {
  std::vector<Term> terms;
  for (const std::string& p : probes)
    terms.push_back(check_source(p).term);
  const auto unfireable =
      testing::expect_no_entry_is_decoration(*paper_rules(), [&](const RulesPtr& without) {
        for (const Term& t : terms)
          for (const DiffMode d : {DiffMode::linear, DiffMode::literal}) {
            Options cut = traced(d);
            cut.rules = without;
            if (observe(t, traced(d)) != observe(t, cut)) return true;
          }
        return false;
      });
  // the compositional reading realises Fig. 3's contexts as premises: declared, never fired
  EXPECT_EQ(unfireable, (std::vector<std::string>{"O-ctx", "O-ctxb"}));
}

// No rule name is a string literal outside the book, no rule enumeration is left, and no mutant
// is named (or selected by name) anywhere in semantics/simple_diff.
TEST(SimpleDiffRuleBook, TheSemanticsNameNoRuleOutsideTheBookAndNoMutant) {
  testing::SemanticsScan scan;
  scan.forbidden = {R"(\bRule::[A-Z])", "with_mutant"}; // no rule enumeration, no selector
  testing::expect_semantics_name_no_rule_and_no_mutant("simple_diff", *paper_rules(), mutants(),
                                                       scan);
}

TEST(SimpleDiffRuleBook, CalculiJsonListsTheBookWithCitationsAndKinds) {
  const std::vector<RuleInfo> book = paper_rules()->infos();
  const auto rules = testing::calculi_json_rules("simple-diff", book);
  EXPECT_EQ(rules[0].at("name"), "O-val");
  const auto r_let = std::find_if(rules.begin(), rules.end(),
                                  [](const auto& r) { return r.at("name") == "R-let"; });
  ASSERT_NE(r_let, rules.end());
  EXPECT_EQ(r_let->at("kind"), "transformation");
  EXPECT_NE(r_let->at("citation").template get<std::string>().find("Fig. 6"), std::string::npos);
  EXPECT_TRUE(rules[13].contains("unfireable")); // O-ctx says why it takes no step
}

// Every calculus's rules come from its rule book: each entry with a citation and a kind.
TEST(SimpleDiffRuleBook, EveryCalculusListsACitedBook) {
  EXPECT_EQ(testing::calculi_with_a_cited_book(), 5);
}

// A mutant is a patch of the book, and its book differs from the paper's only in the entries the
// patch names.
TEST(SimpleDiffRuleBook, EveryMutantIsAPatchOfNamedEntries) {
  for (const Mutant& m : mutant_catalogue()) {
    ASSERT_FALSE(m.patch.edits.empty()) << m.def.name;
    testing::expect_same_names(*m.rules.get(), *paper_rules(), m.def.name);
  }
  EXPECT_EQ(with_mutant(Options{}, "").rules, paper_rules());
  EXPECT_THROW(with_mutant(Options{}, "simple-diff/no-such-mutant"), AdsemError);
}

} // namespace
} // namespace adsem::simple_diff::rule_book_test
