// The command line's conventions: `adsem help [COMMAND]`, a mistyped command named with its
// nearest match, each command showing only its own options, a term read from standard input
// (`-`), and the JSON outputs' shared fields (schema_version; "printed" and "reals" in every
// term command; calculi --json carrying what the text listing shows).
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_registry.hpp"
#include "cli/nearest_name.hpp"
#include "reports/schema_version.hpp"
#include "support/cli_run.hpp"

namespace adsem::cli_conventions_test {
namespace {

testing::CliRun run_cli(std::vector<std::string> args, std::istream* in = nullptr) {
  static const auto registry = cli::builtin_registry();
  return testing::run_cli(registry, std::move(args), in);
}

nlohmann::json json_of(const testing::CliRun& run) {
  return nlohmann::json::parse(run.out);
}

const char* const mul = R"(\(x : Real, y : Real). x * y)";

TEST(NearestName, CountsTranspositionsAsOneEdit) {
  EXPECT_EQ(cli::edit_distance("camapign", "campaign"), 1u);
  EXPECT_EQ(cli::edit_distance("", "abc"), 3u);
  EXPECT_EQ(cli::edit_distance("grad", "grad"), 0u);
  EXPECT_EQ(cli::nearest_name("camapign", {"calculi", "campaign", "cross"}), "campaign");
  EXPECT_EQ(cli::nearest_name("evl", {"eval", "type"}), "eval");
  EXPECT_EQ(cli::nearest_name("frobnicate", {"eval", "type"}), std::nullopt);
  EXPECT_EQ(cli::nearest_name("x", {"cross"}), std::nullopt);
}

TEST(CliHelp, AMistypedCommandSuggestsTheNearest) {
  const auto run = run_cli({"camapign", "simple-diff"});
  EXPECT_EQ(run.code, 2);
  EXPECT_NE(run.err.find("unknown command 'camapign'; did you mean 'campaign'?"), std::string::npos)
      << run.err;
  const auto far = run_cli({"frobnicate"});
  EXPECT_EQ(far.code, 2);
  EXPECT_NE(far.err.find("unknown command 'frobnicate' (commands: calculi, type,"),
            std::string::npos)
      << far.err;
  const auto json = run_cli({"camapign", "--json"});
  EXPECT_EQ(json.code, 2);
  EXPECT_EQ(json_of(json).at("error").at("kind"), "usage");
}

TEST(CliHelp, HelpAndHelpCommandWork) {
  const auto all = run_cli({"help"});
  EXPECT_EQ(all.code, 0) << all.err;
  EXPECT_NE(all.out.find("campaign"), std::string::npos);
  EXPECT_NE(all.out.find("throughput"), std::string::npos);
  const auto one = run_cli({"help", "campaign"});
  EXPECT_EQ(one.code, 0) << one.err;
  EXPECT_NE(one.out.find("adsem campaign"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("--shard"), std::string::npos);
  EXPECT_EQ(one.out, run_cli({"campaign", "--help"}).out);
  const auto typo = run_cli({"help", "gard"});
  EXPECT_EQ(typo.code, 2);
  EXPECT_NE(typo.err.find("did you mean 'grad'?"), std::string::npos) << typo.err;
}

TEST(CliHelp, EachTermCommandShowsOnlyItsOwnOptions) {
  const auto type = run_cli({"type", "--help"}).out;
  for (const char* absent : {"--fuel", "--mutant", "--at", "--trace", "--mechanism"})
    EXPECT_EQ(type.find(absent), std::string::npos) << absent << " in type --help:\n" << type;
  const auto denote = run_cli({"denote", "--help"}).out;
  EXPECT_NE(denote.find("--at"), std::string::npos);
  for (const char* absent : {"--fuel", "--mutant", "--trace", "--mechanism"})
    EXPECT_EQ(denote.find(absent), std::string::npos) << absent << " in denote --help";
  const auto eval = run_cli({"eval", "--help"}).out;
  for (const char* present : {"--fuel", "--mutant", "--trace"})
    EXPECT_NE(eval.find(present), std::string::npos) << present << " in eval --help";
  EXPECT_EQ(eval.find("--at"), std::string::npos);
  const auto grad = run_cli({"grad", "--help"}).out;
  for (const char* present : {"--fuel", "--mutant", "--at", "--mechanism"})
    EXPECT_NE(grad.find(present), std::string::npos) << present << " in grad --help";
  EXPECT_EQ(run_cli({"type", "delta-reverse", "-e", mul, "--fuel", "5"}).code, 2);
}

TEST(CliTerm, ATermIsReadFromStandardInput) {
  std::istringstream term("(\\(x : Real). x * x)\n3.0\n");
  const auto run = run_cli({"eval", "delta-reverse", "-", "--json"}, &term);
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(json_of(run).at("value"), "9.0");
  std::istringstream broken("\n  (1.0,");
  const auto error = run_cli({"type", "delta-reverse", "-", "--json"}, &broken);
  EXPECT_EQ(error.code, 2);
  EXPECT_EQ(json_of(error).at("error").at("line"), 2);
  // No standard input (an in-process caller that gave none): a usage error, not a crash.
  EXPECT_EQ(run_cli({"type", "delta-reverse", "-"}).code, 2);
}

TEST(CliJson, TermCommandsShareThePrintedAndRealsFields) {
  const auto eval = json_of(run_cli({"eval", "delta-reverse", "-e", "(1.5, 2.0)", "--json"}));
  EXPECT_EQ(eval.at("printed"), eval.at("value"));
  EXPECT_EQ(eval.at("reals"), nlohmann::json::array({1.5, 2.0}));
  const auto denote = json_of(run_cli({"denote", "delta-reverse", "-e", "(1.5, 2.0)", "--json"}));
  EXPECT_EQ(denote.at("value"), nlohmann::json::array({1.5, 2.0})); // design.md's shape
  EXPECT_EQ(denote.at("reals"), denote.at("value"));
  EXPECT_TRUE(denote.at("printed").is_string());
  const auto grad = json_of(run_cli({"grad", "delta-reverse", "-e", mul, "--at", "3,4", "--json"}));
  EXPECT_EQ(grad.at("value"), 12.0); // design.md's shape
  EXPECT_EQ(grad.at("reals"), nlohmann::json::array({12.0}));
  EXPECT_EQ(grad.at("printed"), "12");
  // A function is not ground: no reals.
  EXPECT_FALSE(json_of(run_cli({"eval", "delta-reverse", "-e", mul, "--json"})).contains("reals"));
}

TEST(CliJson, EveryOutputCarriesTheSchemaVersion) {
  const std::vector<std::vector<std::string>> commands = {
      {"calculi", "--json"},
      {"type", "delta-reverse", "-e", mul, "--json"},
      {"eval", "delta-reverse", "-e", "1.0", "--json"},
      {"reduce", "delta-reverse", "-e", "1.0", "--json"},
      {"denote", "delta-reverse", "-e", "1.0", "--json"},
      {"grad", "delta-reverse", "-e", mul, "--at", "1,2", "--json"},
      {"type", "delta-reverse", "-e", "(", "--json"},
      {"campaign", "delta-reverse", "-n", "3", "--no-corpus", "--json"},
  };
  for (const auto& command : commands) {
    const auto run = run_cli(command);
    EXPECT_EQ(json_of(run).value(reports::schema_version_key, 0), reports::schema_version)
        << command[0] << ": " << run.out.substr(0, 200);
  }
}

TEST(CliJson, CampaignJsonCarriesRuleCoverage) {
  const auto j =
      json_of(run_cli({"campaign", "delta-reverse", "-n", "5", "--no-corpus", "--json"}));
  ASSERT_TRUE(j.contains("rule_coverage")) << j.dump().substr(0, 300);
  EXPECT_FALSE(j.at("rule_coverage").at("delta-reverse").empty());
}

TEST(CliJson, CalculiJsonCarriesWhatTheTextShows) {
  const auto j = json_of(run_cli({"calculi", "--json"}));
  const auto text = run_cli({"calculi"}).out;
  for (const auto& calculus : j.at("calculi")) {
    ASSERT_EQ(calculus.at("property_details").size(), calculus.at("properties").size());
    for (const auto& p : calculus.at("property_details")) {
      EXPECT_NE(text.find(p.at("summary").get<std::string>()), std::string::npos);
      EXPECT_NE(text.find("[" + p.at("kind").get<std::string>() + "]"), std::string::npos);
      EXPECT_FALSE(p.at("citation").get<std::string>().empty()) << p.at("name");
    }
    ASSERT_EQ(calculus.at("mutant_details").size(), calculus.at("mutants").size());
    for (const auto& m : calculus.at("mutant_details")) {
      EXPECT_NE(text.find("[" + m.at("bug_class").get<std::string>() + "] " +
                          m.at("summary").get<std::string>()),
                std::string::npos)
          << m.at("name");
    }
    EXPECT_TRUE(calculus.contains("rules"));
  }
}

} // namespace
} // namespace adsem::cli_conventions_test
