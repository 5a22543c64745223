// perturbative's rule book (semantics/perturbative/rules.cpp): no entry is decoration (removing
// it from a copy changes the trace or the result of some term), the semantics name no rule outside
// the book and no mutant at all, and `adsem calculi --json` lists the book, T_x's clauses
// included, with citations and kinds.
#include <algorithm>
#include <array>

#include <gtest/gtest.h>

#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/mutants.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "syntax/perturbative/printer.hpp"
#include "tests/support/rule_book_checks.hpp"

namespace adsem::perturbative::rule_book_test {
namespace {

// Terms on which, together, every fireable entry of the book fires.
const std::vector<std::string> probes = {
    "T (\\x:R. x*x + 1) (1, 3)", // T, β, ×1, ×2, δ, ν; T_x x, app, ι, c
    "pi1 (T sin (1, 0.5))",      // δT
    "pi1 (T (\\x:R. x * pi1 (T (\\y:R. x) (1, 2))) (1, 1))",               // T_x y, T, λ, π
    "T (\\x:R. (\\y:R. y) x) (1, 2)",                                      // T_x λ
    "(\\f:R->R. f 3) (sin + cos)",                                         // ν under λ
    "let D = \\f:R->R. \\a:R. pi1 (T f (1, a)) in D (D (\\x:R. x*x*x)) 2", // nested T
    "T (\\p:R*R. pi1 p + pi2 p) ((1, 2), (3, 4))",                         // T_x π
    "pi2 (T (\\x:R. \\y:R. x*y) (1, 3)) 5",                                // T_x λ
    "pi2 (T (\\f:R->R. T f) ((\\x:R. x), sin)) (1, 2)",                    // T_x T
};

// The derivative terms `grad` and the AD properties build: D(λx. x*x, 1, 3) and, with point and
// tangent of one type R × R, D(λp. π1 p * π2 p, (1, 0), (2, 5)).
const std::vector<std::array<std::string, 3>> derivative_probes = {
    {"\\x:R. x*x", "1", "3"},
    {"\\p:R*R. pi1 p * pi2 p", "(1, (0 : R))", "(2, 5)"},
};

// D(f, v, a) as `book` expands it, normalised.
Term expanded_derivative(const std::array<std::string, 3>& probe, const Rules& book) {
  Engine engine(book);
  const Term d =
      derivative(engine, parse_closed(probe[0]), parse_closed(probe[1]), parse_closed(probe[2]));
  return normalise(d, book).result;
}

// What a run shows: each line of the trace and the normal form, or the error it stopped with.
std::vector<std::string> observe(const Term& m, const Rules& book) {
  std::vector<std::string> lines;
  try {
    RunOptions options;
    options.trace = true;
    options.fuel = 100'000;
    const Run run = normalise(m, book, options);
    lines = run.trace;
    lines.push_back("normal form " + print(run.result));
  } catch (const AdsemError& e) {
    lines.push_back(std::string("error ") + e.what());
  }
  return lines;
}

TEST(PerturbativeRuleBook, EveryFireableEntryFiresOnTheProbes) {
  std::map<std::string, long> fired;
  for (const std::string& p : probes)
    for (const auto& [rule, n] : normalise(parse_closed(p), *paper_rules()).rule_counts)
      fired[rule] += n;
  for (const auto& probe : derivative_probes) {
    Engine engine(*paper_rules());
    (void)derivative(engine, parse_closed(probe[0]), parse_closed(probe[1]),
                     parse_closed(probe[2]));
    engine.add_firings(fired);
  }
  std::vector<std::string> unfireable;
  for (const RuleInfo& rule : paper_rules()->infos()) {
    if (!rule.unfireable.empty())
      unfireable.push_back(rule.name);
    else
      EXPECT_GT(fired[rule.name], 0) << rule.name << " fires on no probe";
  }
  // T_x 0 = 0 and T_x (s + N) = T_x s + T_x N are the traversal (T_x is additive)
  EXPECT_EQ(unfireable, (std::vector<std::string>{"Tx-0", "Tx-sum"}));
}

TEST(PerturbativeRuleBook, RemovingAnyEntryChangesTheTraceOfSomeTerm) {
  std::vector<Term> terms;
  for (const std::string& p : probes)
    terms.push_back(parse_closed(p));
  const auto shown = [](const auto& probe, const Rules& book) {
    try {
      return print(expanded_derivative(probe, book));
    } catch (const AdsemError& e) {
      return std::string("error ") + e.what();
    }
  };
  testing::expect_no_entry_is_decoration(*paper_rules(), [&](const RulesPtr& without) {
    return std::ranges::any_of(
               terms,
               [&](const Term& t) { return observe(t, *paper_rules()) != observe(t, *without); }) ||
           std::ranges::any_of(derivative_probes, [&](const auto& probe) {
             return shown(probe, *paper_rules()) != shown(probe, *without);
           });
  });
}

// The clauses of T_x are recorded under their names and traced, but a (T) step is one step: the
// paper's step count is that of Fig. 3 (and spec §4.5).
TEST(PerturbativeRuleBook, TxClausesAreTracedButTakeNoStep) {
  RunOptions options;
  options.trace = true;
  const perturbative::Run run =
      normalise(parse_closed("T (\\x:R. x) (1, 2)"), *paper_rules(), options);
  EXPECT_EQ(run.steps, 2); // T(λx.x) → λx.T_x x = λx.x, then β
  EXPECT_EQ(run.rule_counts.at("T"), 1);
  EXPECT_EQ(run.rule_counts.at("Tx-x"), 1);
  ASSERT_GE(run.trace.size(), 2u);
  EXPECT_EQ(run.trace[0].rfind("T: ", 0), 0u) << run.trace[0];
  EXPECT_EQ(run.trace[1], "Tx-x: x");
}

// No rule name is a string literal outside the book, and no mutant is named (or selected by
// name) anywhere in semantics/perturbative.
TEST(PerturbativeRuleBook, TheSemanticsNameNoRuleOutsideTheBookAndNoMutant) {
  testing::SemanticsScan scan;
  scan.forbidden = {"semantics_for", "mutant_catalogue", "rules_for", "model_mode"};
  testing::expect_semantics_name_no_rule_and_no_mutant("perturbative", *paper_rules(), mutants(),
                                                       scan);
}

TEST(PerturbativeRuleBook, CalculiJsonListsTheBookWithCitationsAndKinds) {
  const auto rules = testing::calculi_json_rules("perturbative", paper_rules()->infos());
  std::vector<std::string> names;
  for (const auto& r : rules)
    names.push_back(r.at("name"));
  EXPECT_EQ(names,
            (std::vector<std::string>{"beta", "times1", "times2", "T", "delta", "delta-T", "nu",
                                      "Tx-x", "Tx-y", "Tx-0", "Tx-lambda", "Tx-sum", "Tx-app",
                                      "Tx-inj", "Tx-T", "Tx-proj", "Tx-const", "D"}));
  for (const auto& r : rules) {
    const std::string name = r.at("name");
    const std::string citation = r.at("citation");
    if (name.starts_with("Tx-") || name == "D") {
      EXPECT_EQ(r.at("kind"), "transformation") << name;
      if (name == "D") {
        EXPECT_NE(citation.find("§2.7"), std::string::npos) << citation;
      } else if (name != "Tx-const") {
        EXPECT_NE(citation.find("Fig. 4"), std::string::npos) << name << ": " << citation;
      }
    } else {
      EXPECT_EQ(r.at("kind"), "reduction") << name;
    }
  }
  EXPECT_NE(rules[0].at("citation").get<std::string>().find("Manzyuk"), std::string::npos);
  EXPECT_NE(rules[0].at("citation").get<std::string>().find("Fig. 3"), std::string::npos);
  EXPECT_TRUE(rules[9].contains("unfireable")); // Tx-0 says why it takes no step of its own
}

// A mutant is a patch of the book (the derivative macro D included) or of the model, and its
// book differs from the paper's only in the entries the patch names.
TEST(PerturbativeRuleBook, EveryMutantIsAPatchOfNamedEntries) {
  int patched = 0;
  for (const Mutant& m : mutant_catalogue()) {
    testing::expect_same_names(*m.semantics.get().rules, *paper_rules(), m.def.name);
    if (m.patch.edits.empty()) {
      EXPECT_EQ(m.semantics.get().rules, paper_rules()) << m.def.name;
    } else {
      EXPECT_NE(m.semantics.get().rules, paper_rules()) << m.def.name;
      ++patched;
    }
  }
  EXPECT_EQ(patched, 8); // the other two change the model (spec §5.3's negative controls)
  EXPECT_EQ(semantics_for("").rules, paper_rules());
  EXPECT_THROW(semantics_for("perturbative/no-such-mutant"), AdsemError);
}

// D(f, v, a) = π1 (T f (v, a)) is the book's entry D, tangent first; d-macro-slots-swapped
// replaces that entry, so the same D(f, v, a) expands to π1 (T f (a, v)).
TEST(PerturbativeRuleBook, TheDerivativeMacroIsAnEntryThatAMutantReplaces) {
  const std::string f_text = "\\p:R*R. pi1 p * pi1 p * pi2 p"; // f(p) = p1² p2
  const Term f = parse_closed(f_text);
  const Term v = parse_closed("(1, (0 : R))");
  const Term a = parse_closed("(2, 3)");
  EXPECT_EQ(print(semantics_for("").derivative(f, v, a)),
            print(parse_closed("pi1 (T (" + f_text + ") ((1, (0 : R)), (2, 3)))")));
  const Semantics& swapped = semantics_for("perturbative/d-macro-slots-swapped");
  EXPECT_EQ(print(swapped.derivative(f, v, a)),
            print(parse_closed("pi1 (T (" + f_text + ") ((2, 3), (1, (0 : R))))")));
  // ∂1 f at (2, 3) is 2·p1·p2 = 12; swapped, the derivative at (1, 0) along (2, 3) is 3
  EXPECT_EQ(print(normalise(semantics_for("").derivative(f, v, a), *paper_rules()).result), "12");
  EXPECT_EQ(print(normalise(swapped.derivative(f, v, a), *swapped.rules).result), "3");
  RuleCounter counter;
  (void)semantics_for("").derivative(f, v, a, &counter);
  EXPECT_EQ(counter.fired.at("D"), 1);
}

} // namespace
} // namespace adsem::perturbative::rule_book_test
