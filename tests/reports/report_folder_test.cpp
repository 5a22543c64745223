// A report folder's start: the results.jsonl header does not claim a completion that has not
// happened, and claiming a folder locks it and clears the files an earlier run left there.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_fixtures.hpp"
#include "reports/json_lines.hpp"
#include "reports/report_folder_lock.hpp"
#include "reports/report_writer.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports::report_folder_test {
namespace {

using testing::ScratchDir;

TEST(ReportFolder, TheResultsHeaderSaysIncompleteUntilTheRunEnds) {
  const ScratchDir dir;
  CampaignResult started = testing::sample_campaign();
  started.complete = true; // the default of a fresh CampaignResult
  {
    ResultsStream stream(dir.path());
    stream.write_campaign_start(started);
  }
  std::ifstream in(dir.path() / results_jsonl_name);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const auto header = nlohmann::json::parse(line);
  EXPECT_EQ(header.at("record"), "campaign");
  EXPECT_EQ(header.at("complete"), false);
}

TEST(ReportFolder, ClaimingLocksTheFolderAndClearsAnEarlierRunsFiles) {
  const ScratchDir dir;
  write_report(testing::sample_campaign(), dir.path(), all_report_formats());
  std::ofstream(dir.path() / results_jsonl_name) << "{}\n";
  std::ofstream(dir.path() / "notes.txt") << "kept\n";
  {
    const ReportFolderLock lock = claim_report_folder(dir.path(), campaign_report_file_names());
    for (const std::string& name : campaign_report_file_names())
      EXPECT_FALSE(std::filesystem::exists(dir.path() / name)) << name;
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "notes.txt")); // not a report file
    try {
      const ReportFolderLock second(dir.path());
      ADD_FAILURE() << "a held folder was locked again";
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::usage);
      EXPECT_NE(e.diagnostic().message.find("another adsem run holds it"), std::string::npos);
    }
  }
  EXPECT_NO_THROW(ReportFolderLock{dir.path()}); // released with the lock object
}

} // namespace
} // namespace adsem::reports::report_folder_test
