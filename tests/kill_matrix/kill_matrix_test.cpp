// The kill matrix on the toy calculus: a mutant that a property kills, one that nothing
// kills, and a paper-literal one that survives (an expected survivor) give the right cells,
// summary, JSON shape, Markdown, HTML and text; `adsem mutants --report` writes all three files.
#include <chrono>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "campaign/toy_calculus.hpp"
#include "properties/core/kill_matrix.hpp"
#include "reports/text_file.hpp"
#include "support/cli_run.hpp"
#include "support/scratch.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::kill_matrix_test {
namespace {

// The toy calculus without its always-false property (which would "kill" every mutant), with
// three mutants: off-by-one (killed by mutant-sensitive), harmless (changes nothing), and a
// paper-literal one (changes nothing either: an expected survivor).
props::Registry matrix_registry() {
  props::CalculusEntry toy = testing::toy_registry().calculi().front();
  std::erase_if(toy.properties,
                [](const props::PropertyDef& def) { return def.name == "toy/below-ten"; });
  toy.mutants = {
      props::MutantDef{
          "toy", "toy/off-by-one", "off-by-one", "successor adds two", {"toy/mutant-sensitive"}},
      props::MutantDef{"toy", "toy/harmless", "none", "changes nothing", {"toy/even-discards"}},
      props::MutantDef{"toy",
                       "toy/paper-literal-noop",
                       "paper-literal",
                       "a printed rule that agrees with the corrected one",
                       {}},
  };
  props::Registry registry;
  registry.add(std::move(toy));
  return registry;
}

props::KillMatrixOptions options(int trials = 100) {
  props::KillMatrixOptions o;
  o.calculi = {"toy"};
  o.trials = trials;
  o.seconds_per_mutant = 60; // the trial count ends each cell long before
  o.seed = 7;
  return o;
}

const reports::KillCell& cell(const reports::MutantKills& m, const std::string& property) {
  for (const auto& c : m.cells)
    if (c.property == property) return c;
  throw std::runtime_error("no cell " + property);
}

const reports::KillMatrix& toy_matrix() {
  static const reports::KillMatrix matrix = props::run_kill_matrix(matrix_registry(), options());
  return matrix;
}

TEST(KillMatrix, CellsSayWhichPropertyKilledWhichMutant) {
  const auto& matrix = toy_matrix();
  ASSERT_EQ(matrix.mutants.size(), 3u);
  const auto& off = matrix.mutants[0];
  EXPECT_EQ(off.name, "toy/off-by-one");
  ASSERT_EQ(off.cells.size(), 3u); // one per property, in registry order
  EXPECT_EQ(off.cells[0].property, "toy/even-discards");

  const auto& killer = cell(off, "toy/mutant-sensitive");
  EXPECT_EQ(killer.outcome, "killed");
  EXPECT_TRUE(killer.expected_killer);
  EXPECT_GE(killer.trials, 1);
  EXPECT_LT(killer.trials, 100); // it stopped at the first counterexample
  EXPECT_GT(killer.seconds, 0.0);
  ASSERT_TRUE(killer.counterexample_size.has_value());
  EXPECT_EQ(*killer.counterexample_size, 0); // shrunk to n = 0 (the toy's size is n)
  EXPECT_NE(killer.replay_command.find("adsem replay"), std::string::npos);

  const auto& survivor = cell(off, "toy/even-discards");
  EXPECT_EQ(survivor.outcome, "survived");
  EXPECT_GT(survivor.discarded, 0);
  EXPECT_EQ(survivor.trials - survivor.discarded, 100); // --trials counts non-discarded cases
  EXPECT_FALSE(survivor.counterexample_size.has_value());

  // An exception inside the property is an error cell, never a kill.
  const auto& error = cell(off, "toy/throws");
  EXPECT_EQ(error.outcome, "error");
  EXPECT_NE(error.message.find("boom"), std::string::npos);

  EXPECT_TRUE(off.killed());
  EXPECT_EQ(off.killed_by(), std::vector<std::string>{"toy/mutant-sensitive"});
  ASSERT_NE(off.fastest_kill(), nullptr);
  EXPECT_EQ(off.fastest_kill()->property, "toy/mutant-sensitive");
}

TEST(KillMatrix, SurvivorsAndPaperLiteralSurvivorsAreShownApart) {
  const auto& matrix = toy_matrix();
  const auto& harmless = matrix.mutants[1];
  EXPECT_FALSE(harmless.killed());
  EXPECT_FALSE(harmless.expected_survivor());
  EXPECT_EQ(cell(harmless, "toy/mutant-sensitive").outcome, "survived");
  EXPECT_EQ(cell(harmless, "toy/mutant-sensitive").trials, 100);
  EXPECT_EQ(cell(harmless, "toy/throws").outcome, "error"); // errors do not kill

  const auto& literal = matrix.mutants[2];
  EXPECT_TRUE(literal.paper_literal());
  EXPECT_TRUE(literal.expected_survivor());

  const auto s = matrix.summary();
  EXPECT_EQ(s.mutants, 3);
  EXPECT_EQ(s.killed, 1);
  EXPECT_EQ(s.survived, 2);
  EXPECT_EQ(s.expected_survivors, 1);
  EXPECT_FALSE(s.all_killed()); // harmless is not excused
  ASSERT_TRUE(s.median_seconds_to_kill && s.max_seconds_to_kill);
  EXPECT_EQ(*s.median_seconds_to_kill, matrix.mutants[0].fastest_kill()->seconds);
  EXPECT_EQ(*s.max_seconds_to_kill, *s.median_seconds_to_kill);
  EXPECT_EQ(s.slowest, "toy/off-by-one");
}

// A property whose chunk overruns the whole budget (as one does under a mutant that loses
// sharing) must not leave the properties after it without trials.
TEST(KillMatrix, ASlowPropertyDoesNotStarveTheOnesAfterIt) {
  props::CalculusEntry toy = matrix_registry().calculi().front();
  toy.properties.insert(
      toy.properties.begin(),
      props::PropertyDef{"toy", "toy/slow", "toy", "every trial takes 20 ms", "",
                         [](const props::PropertyContext&) {
                           const int n = *rc::gen::inRange(0, 10);
                           std::this_thread::sleep_for(std::chrono::milliseconds(20));
                           return props::TrialResult::pass().on(std::to_string(n), "int", n);
                         },
                         10});
  props::Registry registry;
  registry.add(std::move(toy));
  auto o = options();
  o.trials.reset();
  o.seconds_per_mutant = 0.2; // one chunk of toy/slow (25 trials, 0.5 s) overruns it all
  o.mutants = {"toy/off-by-one"};
  const auto matrix = props::run_kill_matrix(registry, o);
  const auto& m = matrix.mutants.at(0);
  EXPECT_EQ(cell(m, "toy/slow").outcome, "survived");
  EXPECT_GE(cell(m, "toy/slow").seconds, 0.2);
  EXPECT_EQ(cell(m, "toy/mutant-sensitive").outcome, "killed");
  EXPECT_NE(cell(m, "toy/even-discards").outcome, "not-run");
}

TEST(KillMatrix, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(reports::median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(reports::median({4.0, 1.0, 3.0, 2.0}), 2.5);
}

TEST(KillMatrix, KillersModeRunsOnlyTheDeclaredKillers) {
  auto o = options();
  o.killers_only = true;
  o.mutants = {"toy/off-by-one"};
  const auto matrix = props::run_kill_matrix(matrix_registry(), o);
  ASSERT_EQ(matrix.mutants.size(), 1u);
  EXPECT_EQ(matrix.mode, "killers");
  const auto& m = matrix.mutants[0];
  EXPECT_EQ(cell(m, "toy/mutant-sensitive").outcome, "killed");
  EXPECT_EQ(cell(m, "toy/even-discards").outcome, "not-run");
  EXPECT_EQ(cell(m, "toy/throws").outcome, "not-run");
  EXPECT_TRUE(m.killed());
}

TEST(KillMatrix, UnknownMutantOrCalculusIsAUsageError) {
  auto o = options();
  o.mutants = {"toy/no-such"};
  EXPECT_THROW(props::run_kill_matrix(matrix_registry(), o), AdsemError);
  o.mutants = {};
  o.calculi = {"nope"};
  EXPECT_THROW(props::run_kill_matrix(matrix_registry(), o), AdsemError);
}

TEST(KillMatrix, JsonHasTheContractFieldsAndEveryCell) {
  const auto j = reports::to_json(toy_matrix());
  ASSERT_EQ(j.at("mutants").size(), 3u);
  const auto& off = j.at("mutants")[0];
  // design.md fixes these.
  EXPECT_EQ(off.at("name"), "toy/off-by-one");
  EXPECT_EQ(off.at("calculus"), "toy");
  EXPECT_EQ(off.at("killed"), true);
  EXPECT_EQ(off.at("killed_by"), nlohmann::json::array({"toy/mutant-sensitive"}));
  EXPECT_TRUE(off.at("seconds_to_kill").is_number());
  // The matrix adds these.
  EXPECT_TRUE(off.at("trials_to_kill").is_number_integer());
  EXPECT_EQ(off.at("counterexample_size"), 0);
  EXPECT_EQ(off.at("fastest_killer"), "toy/mutant-sensitive");
  ASSERT_EQ(off.at("cells").size(), 3u);
  for (const auto& c : off.at("cells")) {
    for (const char* key : {"property", "outcome", "trials", "seconds", "expected_killer"})
      EXPECT_TRUE(c.contains(key)) << key << " in " << c.dump();
  }
  const auto& harmless = j.at("mutants")[1];
  EXPECT_EQ(harmless.at("killed"), false);
  EXPECT_TRUE(harmless.at("seconds_to_kill").is_null());
  EXPECT_EQ(harmless.at("expected_survivor"), false);
  EXPECT_EQ(j.at("mutants")[2].at("expected_survivor"), true);
  const auto& s = j.at("summary");
  EXPECT_EQ(s.at("mutants"), 3);
  EXPECT_EQ(s.at("killed"), 1);
  EXPECT_EQ(s.at("expected_survivors"), 1);
  EXPECT_EQ(s.at("all_killed"), false);
  EXPECT_TRUE(s.at("median_seconds_to_kill").is_number());
  EXPECT_TRUE(s.at("max_seconds_to_kill").is_number());
  EXPECT_EQ(j.at("seed"), 7);
  EXPECT_EQ(j.at("mode"), "matrix");
}

TEST(KillMatrix, MarkdownHasTheMutantTableAndTheMatrix) {
  const std::string md = reports::render_kill_matrix_markdown(toy_matrix());
  EXPECT_NE(md.find("# adsem kill matrix"), std::string::npos);
  EXPECT_NE(md.find("**MUTANTS SURVIVED**: 1 of 3 mutants killed"), std::string::npos) << md;
  EXPECT_NE(md.find("## toy"), std::string::npos);
  EXPECT_NE(md.find("| M1 | `toy/off-by-one` |"), std::string::npos) << md;
  EXPECT_NE(md.find("| Property | M1 | M2 | M3 |"), std::string::npos) << md;
  // The killing cell gives seconds / trials / size; the declared killer is in bold.
  const auto row = md.find("| `mutant-sensitive` | **K** ");
  ASSERT_NE(row, std::string::npos) << md;
  EXPECT_NE(md.find("/ size 0 |", row), std::string::npos);
  EXPECT_NE(md.find("SURVIVED\\*"), std::string::npos); // the paper-literal survivor
  EXPECT_NE(md.find("expected survivor"), std::string::npos);
}

TEST(KillMatrix, HtmlIsSelfContainedAndHasTheMatrix) {
  const std::string html = reports::render_kill_matrix_html(toy_matrix());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<table class=\"matrix\">"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"killed declared\""), std::string::npos);
  EXPECT_NE(html.find("<td class=\"error\""), std::string::npos);
  EXPECT_NE(html.find("MUTANTS SURVIVED"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos); // the time-to-kill chart
  EXPECT_NE(html.find("toy/paper-literal-noop"), std::string::npos);
  // Offline: no scripts, no external resources.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  EXPECT_NE(html.rfind("</html>"), std::string::npos);
}

TEST(KillMatrix, TextShowsOneGridRowPerMutant) {
  const std::string text = reports::render_kill_matrix_text(toy_matrix());
  // Cells in registry order: even-discards, mutant-sensitive, throws.
  EXPECT_NE(text.find("off-by-one"), std::string::npos);
  EXPECT_NE(text.find(".KE"), std::string::npos) << text; // off-by-one
  EXPECT_NE(text.find("x.E"), std::string::npos) << text; // harmless: its killer missed
  EXPECT_NE(text.find("SURVIVED*"), std::string::npos) << text;
  EXPECT_NE(text.find("1 of 3 mutants killed; 2 survived (1 paper-literal, expected)"),
            std::string::npos)
      << text;
}

// `mutants CALC --rules FILE`: the matrix names the file and its hash in every form, as the
// campaign reports do; without a file nothing is added.
TEST(KillMatrix, ARuleFileIsNamedInEveryForm) {
  reports::KillMatrix with = toy_matrix();
  with.rules = reports::CampaignRules{"my.rules", "0123456789abcdef", "toy", {"r"}, {"E-Let"}};
  const std::string text = reports::render_kill_matrix_text(with);
  EXPECT_NE(text.find("\nrules: my.rules (0123456789abcdef)\n"), std::string::npos) << text;
  const auto j = reports::to_json(with);
  EXPECT_EQ(j.at("rules").at("file"), "my.rules");
  EXPECT_EQ(j.at("rules").at("hash"), "0123456789abcdef");
  EXPECT_EQ(j.at("rules").at("names"), nlohmann::json::array({"r"}));
  EXPECT_EQ(j.at("rules").at("removed"), nlohmann::json::array({"E-Let"}));
  EXPECT_NE(
      reports::render_kill_matrix_markdown(with).find("| Rules | my.rules (0123456789abcdef) |"),
      std::string::npos);
  EXPECT_NE(reports::render_kill_matrix_html(with).find(
                "<tr><th>Rules</th><td>my.rules (0123456789abcdef)</td></tr>"),
            std::string::npos);
  EXPECT_FALSE(reports::to_json(toy_matrix()).contains("rules"));
  EXPECT_EQ(reports::render_kill_matrix_text(toy_matrix()).find("rules:"), std::string::npos);
}

testing::CliRun run_cli(std::vector<std::string> args) {
  return testing::run_cli(matrix_registry(), std::move(args));
}

TEST(KillMatrixCli, ReportWritesJsonMarkdownAndHtmlAndASurvivorExitsOne) {
  const auto dir = testing::scratch_path("kill-matrix");
  const auto run =
      run_cli({"mutants", "toy", "--trials", "50", "--seed", "3", "--report", dir.string()});
  EXPECT_EQ(run.code, 1) << run.out << run.err; // toy/harmless survives
  EXPECT_NE(run.out.find("kill matrix written to"), std::string::npos);
  EXPECT_NE(run.err.find("toy/off-by-one: killed in"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("toy/paper-literal-noop: survived (paper-literal, expected)"),
            std::string::npos)
      << run.err;
  const auto j = nlohmann::json::parse(reports::read_text_file(dir / "kill-matrix.json"));
  EXPECT_EQ(j.at("mutants").size(), 3u);
  EXPECT_TRUE(j.at("isolated").get<bool>()); // the CLI isolates by default
  EXPECT_NE(reports::read_text_file(dir / "kill-matrix.md").find("| Property | M1 | M2 | M3 |"),
            std::string::npos);
  EXPECT_NE(reports::read_text_file(dir / "kill-matrix.html").find("<table class=\"matrix\">"),
            std::string::npos);
}

TEST(KillMatrixCli, OnlyAPaperLiteralSurvivorExitsZero) {
  const auto run = run_cli({"mutants", "toy", "-m", "toy/off-by-one", "-m",
                            "toy/paper-literal-noop", "--trials", "50", "--no-isolate", "--json"});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("summary").at("all_killed"), true);
  EXPECT_EQ(j.at("summary").at("expected_survivors"), 1);
}

} // namespace
} // namespace adsem::kill_matrix_test
