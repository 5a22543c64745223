// The CLI driven in-process on the toy calculus: campaign writes every report, replay
// reproduces a counterexample from its token and from the report folder, errors exit 2.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "support/scratch.hpp"
#include "toy_calculus.hpp"

namespace adsem::cli_test {
namespace {

struct Run {
  int code;
  std::string out;
  std::string err;
};

Run run_cli(std::vector<std::string> args) {
  // Campaigns in these tests must not share the default failure corpus in the working folder.
  if (!args.empty() && args[0] == "campaign" && std::ranges::find(args, "--corpus") == args.end())
    args.push_back("--no-corpus");
  args.insert(args.begin(), "adsem");
  std::ostringstream out, err;
  const auto registry = testing::toy_registry();
  const int code = cli::run(args, registry, cli::Io{out, err});
  return {code, out.str(), err.str()};
}

testing::Scratch fresh_dir(const std::string& name) {
  return testing::scratch_path("cli-" + name);
}

TEST(Cli, CampaignWritesEveryReportAndExitsOneOnACounterexample) {
  const auto dir = fresh_dir("campaign");
  const auto run = run_cli({"campaign", "toy", "--property", "below-ten", "--trials", "100",
                            "--seed", "5", "--report", dir.string()});
  EXPECT_EQ(run.code, 1) << run.err;
  for (const char* file :
       {"results.jsonl", "summary.json", "report.md", "report.html", "junit.xml"})
    EXPECT_TRUE(std::filesystem::exists(dir / file)) << file;
  EXPECT_NE(run.out.find("toy/below-ten"), std::string::npos);
  EXPECT_NE(run.out.find("adsem replay 'adsem2."), std::string::npos);
  // junit.xml is well-formed XML with one testcase and one failure.
  const std::string check =
      "python3 -c \"import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); "
      "sys.exit(0 if len(r.findall('.//testcase'))==1 and len(r.findall('.//failure'))==1 "
      "else 3)\" " +
      (dir / "junit.xml").string();
  EXPECT_EQ(std::system(check.c_str()), 0);
}

// A program built on cli::run (docs/kit.md) prints replay commands under its own name: the
// file name of args[0].
TEST(Cli, ReplayCommandsNameTheProgramThatRan) {
  std::ostringstream out, err;
  const auto registry = testing::toy_registry();
  const int code = cli::run({"/opt/tools/adsem-kit", "campaign", "toy", "--property", "below-ten",
                             "--trials", "100", "--seed", "5", "--no-corpus"},
                            registry, cli::Io{out, err});
  EXPECT_EQ(code, 1) << err.str();
  EXPECT_NE(out.str().find("adsem-kit replay 'adsem2."), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("/opt/tools"), std::string::npos) << out.str();
}

TEST(Cli, CampaignJsonHasTheContractShape) {
  const auto run = run_cli({"campaign", "toy", "-p", "mutant-sensitive", "-n", "30", "--json"});
  ASSERT_EQ(run.code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j.at("properties").size(), 1u);
  const auto& p = j.at("properties")[0];
  for (const char* key : {"name", "trials", "passed", "failed", "discarded"})
    EXPECT_TRUE(p.contains(key)) << key;
  EXPECT_EQ(p.at("trials"), 30);
  EXPECT_TRUE(j.at("counterexamples").empty());
}

TEST(Cli, ReplayReproducesFromTokenAndFromReport) {
  const auto dir = fresh_dir("replay");
  ASSERT_EQ(run_cli({"campaign", "toy", "-p", "below-ten", "-n", "100", "--report", dir.string(),
                     "--format", "json"})
                .code,
            1);
  const auto summary = nlohmann::json::parse(std::ifstream(dir / "summary.json"));
  const std::string token = summary.at("counterexamples")[0].at("replay_token");
  const auto by_token = run_cli({"replay", token});
  EXPECT_EQ(by_token.code, 1);
  EXPECT_NE(by_token.out.find("counterexample reproduced"), std::string::npos);
  EXPECT_NE(by_token.out.find("10"), std::string::npos);
  const auto by_report = run_cli({"replay", dir.string(), "--json"});
  EXPECT_EQ(by_report.code, 1);
  const auto j = nlohmann::json::parse(by_report.out);
  ASSERT_EQ(j.at("replays").size(), 1u);
  EXPECT_EQ(j.at("replays")[0].at("counterexample").at("term"), "10");
}

TEST(Cli, ErrorsAreUsageErrorsWithJsonShape) {
  EXPECT_EQ(run_cli({"campaign", "nope"}).code, 2);
  EXPECT_EQ(run_cli({"campaign", "toy", "--shard", "2/2"}).code, 2);
  EXPECT_EQ(run_cli({"campaign", "toy", "--format", "pdf"}).code, 2);
  EXPECT_EQ(run_cli({"replay", "adsem1.!!"}).code, 2);
  EXPECT_EQ(run_cli({"frobnicate"}).code, 2);
  const auto run = run_cli({"type", "nope", "-e", "1", "--json"});
  EXPECT_EQ(run.code, 2);
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j.at("error").at("kind"), "usage");
}

TEST(Cli, CalculiJsonListsPropertiesAndMutants) {
  const auto run = run_cli({"calculi", "--json"});
  ASSERT_EQ(run.code, 0);
  const auto j = nlohmann::json::parse(run.out);
  const auto& toy = j.at("calculi")[0];
  EXPECT_EQ(toy.at("id"), "toy");
  EXPECT_EQ(toy.at("aliases")[0], "toy-alias");
  EXPECT_EQ(toy.at("properties").size(), 4u);
  // property → kind, which the per-kind ctest tests are generated from (AdsemKindTests.cmake)
  EXPECT_EQ(toy.at("property_kinds").size(), 4u);
  EXPECT_EQ(toy.at("property_kinds").at("toy/throws"), "toy");
  EXPECT_EQ(toy.at("mutants")[0], "toy/off-by-one");
}

TEST(Cli, HelpExitsZero) {
  EXPECT_EQ(run_cli({"--help"}).code, 0);
  const auto run = run_cli({"campaign", "--help"});
  EXPECT_EQ(run.code, 0);
  EXPECT_NE(run.out.find("--shard"), std::string::npos);
}

} // namespace
} // namespace adsem::cli_test

namespace adsem::cli_test {
namespace {

TEST(Cli, MutantsKillMatrixNamesTheKillerAndExitsZeroWhenAllDie) {
  const auto run = run_cli({"mutants", "toy", "--trials", "100", "--json"});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j.at("mutants").size(), 1u);
  const auto& m = j.at("mutants")[0];
  EXPECT_EQ(m.at("name"), "toy/off-by-one");
  EXPECT_EQ(m.at("calculus"), "toy");
  EXPECT_EQ(m.at("killed"), true);
  // The false toy property fails with or without the mutant, so it "kills" it too; the
  // mutant-sensitive property is the one that matters.
  const auto killers = m.at("killed_by").get<std::vector<std::string>>();
  EXPECT_NE(std::find(killers.begin(), killers.end(), "toy/mutant-sensitive"), killers.end());
  EXPECT_TRUE(m.at("seconds_to_kill").is_number());
}

} // namespace
} // namespace adsem::cli_test
