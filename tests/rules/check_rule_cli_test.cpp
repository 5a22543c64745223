// `adsem check-rule` in-process: exit codes (0 sound, 1 a failing rule or an ill-typed schema, 2 a
// parse error or an unsupported calculus), located messages, and the --json shape.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"
#include "support/scratch.hpp"

namespace adsem::check_rule_cli_test {
namespace {

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

CliRun run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "adsem");
  std::ostringstream out, err;
  static const auto registry = cli::builtin_registry();
  const int code = cli::run(args, registry, cli::Io{out, err});
  return {code, out.str(), err.str()};
}

std::string example(const std::string& name) {
  return std::string(ADSEM_SOURCE_DIR) + "/examples/rules/simple_diff/" + name;
}

testing::Scratch temp_rules(const std::string& name, const std::string& text) {
  auto path = testing::scratch_path("rules-" + name);
  std::ofstream(path.path()) << text;
  return path;
}

TEST(CheckRuleCli, SoundRuleExitsZeroAndUnsoundRuleExitsOne) {
  const CliRun sound = run_cli({"check-rule", "simple-diff", example("sound.rules"), "-r",
                                "mult-distrib", "-n", "40", "--no-mutants"});
  EXPECT_EQ(sound.code, 0) << sound.out << sound.err;
  EXPECT_NE(sound.out.find("PASS mult-distrib"), std::string::npos) << sound.out;

  const CliRun unsound = run_cli({"check-rule", "abadi-plotkin", example("unsound.rules"), "-r",
                                  "wrong-distrib", "-n", "40", "--no-mutants"});
  EXPECT_EQ(unsound.code, 1) << unsound.out << unsound.err;
  EXPECT_NE(unsound.out.find("FAIL wrong-distrib"), std::string::npos) << unsound.out;
  EXPECT_NE(unsound.out.find("counterexample (shrunk)"), std::string::npos) << unsound.out;
  EXPECT_NE(unsound.out.find("replay: adsem check-rule abadi-plotkin"), std::string::npos);
}

TEST(CheckRuleCli, JsonListsChecksCounterexamplesAndMutants) {
  const CliRun run = run_cli({"check-rule", "simple-diff", example("unsound.rules"), "-r",
                              "wrong-distrib", "-n", "30", "--mutant-trials", "30", "--json"});
  EXPECT_EQ(run.code, 1) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("calculus"), "simple-diff");
  EXPECT_FALSE(j.at("passed").get<bool>());
  ASSERT_EQ(j.at("rules").size(), 1u);
  const auto& rule = j.at("rules")[0];
  EXPECT_EQ(rule.at("name"), "wrong-distrib");
  EXPECT_EQ(rule.at("checks").size(), 4u);
  EXPECT_FALSE(rule.at("counterexamples").empty());
  EXPECT_TRUE(rule.at("counterexamples")[0].contains("term"));
  ASSERT_FALSE(rule.at("mutants").empty());
  EXPECT_TRUE(rule.at("mutants")[0].contains("killed_by"));
}

TEST(CheckRuleCli, ParseErrorsExitTwoWithLineAndColumn) {
  const auto parse = temp_rules("parse", "meta M : real\nr1: M + M ==> M\n");
  const CliRun run = run_cli({"check-rule", "simple-diff", parse.string()});
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.err.find("2:16: parse error"), std::string::npos) << run.err;

  const auto unbound = temp_rules("unbound", "meta M : real, P : real\nr: M + M --> M + P\n");
  const CliRun json = run_cli({"check-rule", "simple-diff", unbound.string(), "--json"});
  EXPECT_EQ(json.code, 2);
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("error").at("kind"), "parse");
  EXPECT_EQ(j.at("error").at("line"), 2);
  EXPECT_EQ(j.at("error").at("column"), 18);
}

TEST(CheckRuleCli, IllTypedSchemaExitsOneWithATypeError) {
  const auto typed = temp_rules("typed", "meta M : real\nr: M + M --> <M, M>\n");
  const CliRun run = run_cli({"check-rule", "simple-diff", typed.string()});
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("2:14: type error"), std::string::npos) << run.err;
}

TEST(CheckRuleCli, CalculiWithoutAnAdapterGetAClearError) {
  // `model` (the self-check of the shared oracles) has no term syntax and so no rule adapter;
  // every calculus with reduction rules has one
  const auto registry = cli::builtin_registry();
  for (const auto& entry : registry.calculi()) {
    if (entry.id != "model" && entry.id != "cross") {
      EXPECT_TRUE(entry.rule_adapter) << entry.id << " has no rule adapter";
    }
  }
  const std::string without = "model";
  const CliRun run = run_cli({"check-rule", without, example("sound.rules")});
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.err.find("no rule adapter"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("simple-diff"), std::string::npos) << run.err;
}

} // namespace
} // namespace adsem::check_rule_cli_test
