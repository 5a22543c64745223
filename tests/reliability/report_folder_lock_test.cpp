// One adsem run per report folder. A second campaign in a folder another run holds is refused
// (exit 2, naming the folder) without touching the first one's files; a run killed with SIGKILL
// leaves the folder free (the kernel drops its flock), and neither the older report's final files
// nor a results.jsonl header claiming completion are left to pass for the killed run.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "campaign/toy_calculus.hpp"
#include "reports/json_lines.hpp"
#include "reports/merge.hpp"
#include "reports/report_folder_lock.hpp"
#include "reports/report_writer.hpp"
#include "support/cli_run.hpp"
#include "support/scratch.hpp"
#include "support/spawn_process.hpp"

namespace adsem::report_folder_lock_test {
namespace {

using namespace std::chrono_literals;

testing::Scratch fresh_dir(const std::string& name) {
  return testing::fresh_dir("folder-lock-" + name);
}

testing::CliRun toy_campaign(const std::filesystem::path& report, const std::string& seed = "1") {
  return testing::run_cli(testing::toy_registry(),
                          {"campaign", "toy", "-p", "even-discards", "-n", "20", "--seed", seed,
                           "--no-corpus", "--no-config", "--report", report.string()});
}

bool names_the_holder(const testing::CliRun& run, const std::filesystem::path& dir) {
  return run.err.find("report folder " + dir.string() + " is in use: another adsem run holds it") !=
         std::string::npos;
}

std::string first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(ReportFolderLock, EveryCommandThatWritesAFolderIsRefusedWhileAnotherRunHoldsIt) {
  const auto dir = fresh_dir("held");
  ASSERT_EQ(toy_campaign(dir / "shard").code, 0);
  const reports::ReportFolderLock held(dir / "report"); // as another run would
  const auto campaign = toy_campaign(dir / "report");
  EXPECT_EQ(campaign.code, 2);
  EXPECT_TRUE(names_the_holder(campaign, dir / "report")) << campaign.err;
  const auto merge =
      testing::run_cli(testing::toy_registry(),
                       {"merge", (dir / "shard").string(), "--report", (dir / "report").string()});
  EXPECT_EQ(merge.code, 2);
  EXPECT_TRUE(names_the_holder(merge, dir / "report")) << merge.err;
  const auto mutants =
      testing::run_cli(testing::toy_registry(),
                       {"mutants", "toy", "-n", "5", "--report", (dir / "report").string()});
  EXPECT_EQ(mutants.code, 2);
  EXPECT_TRUE(names_the_holder(mutants, dir / "report")) << mutants.err;
}

TEST(ReportFolderLock, AMistypedSelectionLeavesTheEarlierReportAlone) {
  const auto dir = fresh_dir("typo");
  ASSERT_EQ(toy_campaign(dir).code, 0);
  const auto typo = testing::run_cli(testing::toy_registry(),
                                     {"campaign", "toy", "-p", "no-such-property", "--no-corpus",
                                      "--no-config", "--report", dir.string()});
  EXPECT_EQ(typo.code, 2);
  for (const std::string& name : reports::campaign_report_file_names())
    EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
}

TEST(ReportFolderLock, AMistypedMutantLeavesTheEarlierKillMatrixAlone) {
  const auto dir = fresh_dir("mutant-typo");
  const auto first = testing::run_cli(testing::toy_registry(),
                                      {"mutants", "toy", "-n", "5", "--report", dir.string()});
  ASSERT_TRUE(std::filesystem::exists(dir / "kill-matrix.json")) << first.err;
  const auto typo =
      testing::run_cli(testing::toy_registry(),
                       {"mutants", "toy", "-m", "toy/no-such-mutant", "--report", dir.string()});
  EXPECT_EQ(typo.code, 2);
  EXPECT_TRUE(std::filesystem::exists(dir / "kill-matrix.json"));
}

// A campaign of the real adsem that runs for a minute (the model calculus, 60 s budget), in one
// process: an isolated run's trial child shares the lock until it ends too, which would make
// the moment the folder is free depend on how fast the kernel reaps it.
pid_t start_long_campaign(const std::filesystem::path& report, const std::filesystem::path& log) {
  return testing::spawn_logged({ADSEM_BINARY, "campaign", "model", "--time", "60", "--seed", "3",
                                "--no-isolate", "--no-corpus", "--no-config", "--report",
                                report.string()},
                               log.string());
}

// Until the results.jsonl header of the run with `seed` is there (the older report has its own).
bool wait_for_header(const std::filesystem::path& file, int seed) {
  for (int i = 0; i < 600; ++i) { // 60 s
    const auto header = nlohmann::json::parse(first_line(file), nullptr, false);
    if (!header.is_discarded() && header.is_object() && header.value("seed", -1) == seed)
      return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

bool killed_by_sigkill(pid_t pid) {
  ::kill(pid, SIGKILL); // no chance to release anything: only the kernel can
  int status = 0;
  return ::waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

TEST(ReportFolderLock, ASecondRunIsRefusedAndTheFolderIsFreeAfterTheFirstIsKilled) {
  const auto dir = fresh_dir("kill");
  const auto report = dir / "report";
  // An older, complete report in the folder.
  ASSERT_EQ(toy_campaign(report, "11").code, 0);
  ASSERT_TRUE(std::filesystem::exists(report / "summary.json"));

  const pid_t pid = start_long_campaign(report, dir / "log.txt");
  ASSERT_GT(pid, 0);
  const auto jsonl = report / reports::results_jsonl_name;
  ASSERT_TRUE(wait_for_header(jsonl, 3)) << "the campaign did not start";

  // The older report's final files are gone: they are not this run's.
  for (const char* stale : {"summary.json", "report.md", "report.html", "junit.xml"})
    EXPECT_FALSE(std::filesystem::exists(report / stale)) << stale;
  // The header does not claim a completion that has not happened.
  const auto header = nlohmann::json::parse(first_line(jsonl));
  EXPECT_EQ(header.at("record"), "campaign");
  EXPECT_EQ(header.at("complete"), false);

  // A second run in the folder is refused and leaves the first one's stream alone.
  const auto second = toy_campaign(report);
  EXPECT_EQ(second.code, 2);
  EXPECT_TRUE(names_the_holder(second, report)) << second.err;
  EXPECT_TRUE(std::filesystem::exists(jsonl));
  EXPECT_EQ(nlohmann::json::parse(first_line(jsonl)).at("seed"), 3);

  ASSERT_TRUE(killed_by_sigkill(pid));
  // What is left is the killed run, incomplete: not the older report.
  const auto left = reports::read_report_dir(report);
  EXPECT_EQ(left.seed, 3u);
  EXPECT_FALSE(left.complete);
  const auto merged = testing::run_cli(
      testing::toy_registry(), {"merge", report.string(), "--report", (dir / "merged").string()});
  EXPECT_EQ(merged.code, 130) << merged.err; // incomplete, not the old run's 0

  // The kernel released the killed run's lock: a new run takes the folder.
  const auto after = toy_campaign(report, "12");
  EXPECT_EQ(after.code, 0) << after.err;
  EXPECT_EQ(reports::read_report_dir(report).seed, 12u);
}

} // namespace
} // namespace adsem::report_folder_lock_test
