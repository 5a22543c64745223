// perturbative's rule book (semantics/perturbative/rules.cpp): no entry is decoration (removing
// it from a copy changes the trace or the result of some term), the semantics name no rule outside
// the book and no mutant at all, and `adsem calculi --json` lists the book, T_x's clauses
// included, with citations and kinds.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_registry.hpp"
#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/mutants.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "syntax/perturbative/printer.hpp"
#include "tests/support/cli_run.hpp"

namespace adsem::perturbative {
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

// What a run shows: each line of the trace and the normal form, or the error it stopped with.
std::vector<std::string> observe(const Bag& m, const Rules& book) {
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
  std::vector<Bag> terms;
  for (const std::string& p : probes)
    terms.push_back(parse_closed(p));
  for (const RuleInfo& rule : paper_rules()->infos()) {
    if (!rule.unfireable.empty()) continue;
    RulesPatch patch;
    patch.name = "without " + rule.name;
    patch.remove(rule.name);
    const RulesPtr without = patch_paper_rules(patch);
    const bool changed = std::ranges::any_of(
        terms, [&](const Bag& t) { return observe(t, *paper_rules()) != observe(t, *without); });
    EXPECT_TRUE(changed) << rule.name << " can be removed without changing any probe's trace";
  }
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

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// No rule name is a string literal outside the book, and no mutant is named (or selected by
// name) anywhere in semantics/perturbative.
TEST(PerturbativeRuleBook, TheSemanticsNameNoRuleOutsideTheBookAndNoMutant) {
  const std::filesystem::path dir =
      std::filesystem::path(ADSEM_SOURCE_DIR) / "semantics" / "perturbative";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find("mutant"), std::string::npos) << name;
    const std::string text = read(entry.path());
    ++files;
    for (const char* selector : {"semantics_for", "mutant_catalogue", "rules_for", "model_mode"})
      EXPECT_EQ(text.find(selector), std::string::npos) << name << " uses " << selector;
    for (const Mutant& m : mutant_catalogue()) {
      const std::string short_name = m.def.name.substr(m.def.name.find('/') + 1);
      EXPECT_EQ(text.find(short_name), std::string::npos) << name << " names " << short_name;
    }
    if (name == "rules.cpp") continue; // the book: the one place rule names are written
    for (const RuleInfo& rule : paper_rules()->infos())
      EXPECT_EQ(text.find('"' + rule.name + '"'), std::string::npos)
          << name << " names the rule " << rule.name;
  }
  EXPECT_GT(files, 10);
}

TEST(PerturbativeRuleBook, CalculiJsonListsTheBookWithCitationsAndKinds) {
  const auto run = testing::run_cli(cli::builtin_registry(), {"calculi", "--json"});
  ASSERT_EQ(run.code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  const auto& calculi = j.at("calculi");
  const auto it = std::find_if(calculi.begin(), calculi.end(),
                               [](const auto& c) { return c.at("id") == "perturbative"; });
  ASSERT_NE(it, calculi.end());
  const auto& rules = it->at("rules");
  const std::vector<RuleInfo> book = paper_rules()->infos();
  ASSERT_EQ(rules.size(), book.size());
  for (std::size_t i = 0; i < book.size(); ++i) {
    EXPECT_EQ(rules[i].at("name"), book[i].name);
    EXPECT_EQ(rules[i].at("citation"), book[i].citation);
    EXPECT_EQ(rules[i].at("kind"), std::string(kind_name(book[i].kind)));
  }
  std::vector<std::string> names;
  for (const auto& r : rules)
    names.push_back(r.at("name"));
  EXPECT_EQ(names, (std::vector<std::string>{"beta", "times1", "times2", "T", "delta", "delta-T",
                                             "nu", "Tx-x", "Tx-y", "Tx-0", "Tx-lambda", "Tx-sum",
                                             "Tx-app", "Tx-inj", "Tx-T", "Tx-proj", "Tx-const"}));
  for (const auto& r : rules) {
    const std::string name = r.at("name");
    const std::string citation = r.at("citation");
    if (name.starts_with("Tx-")) {
      EXPECT_EQ(r.at("kind"), "transformation") << name;
      if (name != "Tx-const") {
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

// A mutant is a patch of the book (or of D or the model), and its book differs from the
// paper's only in the entries the patch names.
TEST(PerturbativeRuleBook, EveryMutantIsAPatchOfNamedEntries) {
  int patched = 0;
  for (const Mutant& m : mutant_catalogue()) {
    const Rules& book = *m.semantics.rules;
    ASSERT_EQ(book.size(), paper_rules()->size()) << m.def.name;
    for (std::size_t i = 0; i < book.size(); ++i)
      EXPECT_EQ(book.info(i).name, paper_rules()->info(i).name);
    if (m.patch.edits.empty()) {
      EXPECT_EQ(m.semantics.rules, paper_rules()) << m.def.name;
    } else {
      EXPECT_NE(m.semantics.rules, paper_rules()) << m.def.name;
      ++patched;
    }
  }
  EXPECT_EQ(patched, 6); // the other three change D or the model
  EXPECT_EQ(semantics_for("").rules, paper_rules());
  EXPECT_THROW(semantics_for("perturbative/no-such-mutant"), AdsemError);
}

} // namespace
} // namespace adsem::perturbative
