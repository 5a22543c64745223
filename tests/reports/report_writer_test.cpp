// The report folder: fixed names, chosen formats, atomic writes leaving no temporary file.
#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_fixtures.hpp"
#include "reports/report_writer.hpp"
#include "reports/text_file.hpp"

namespace adsem::reports::report_writer_test {
namespace {

using testing::ScratchDir;

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(ReportWriter, WritesEveryFormatUnderItsFixedName) {
  const ScratchDir dir;
  const auto folder = dir.path() / "a" / "b"; // created on demand
  const auto written = write_report(testing::sample_campaign(), folder, all_report_formats());
  ASSERT_EQ(written.size(), 4u);
  EXPECT_EQ(written[0], folder / "summary.json");
  EXPECT_EQ(names_in(folder),
            (std::vector<std::string>{"junit.xml", "report.html", "report.md", "summary.json"}));
  EXPECT_NE(read_text_file(folder / "report.md").find("adsem replay adsem1:simple-diff/adequacy"),
            std::string::npos);
  EXPECT_NE(read_text_file(folder / "report.html").find("(x:real. sin(x) * x) 1.5"),
            std::string::npos);
  const auto summary = nlohmann::json::parse(read_text_file(folder / "summary.json"));
  EXPECT_EQ(summary.at("properties").size(), 3u);
  EXPECT_EQ(summary.at("tolerance_policy"), "|a-b| <= max(rtol*(|a|+|b|)/2, atol)");
}

TEST(ReportWriter, WritesOnlyTheChosenFormats) {
  const ScratchDir dir;
  write_report(testing::sample_campaign(), dir.path(), parse_report_formats("md, junit"));
  EXPECT_EQ(names_in(dir.path()), (std::vector<std::string>{"junit.xml", "report.md"}));
}

TEST(ReportWriter, ParsesFormatLists) {
  EXPECT_EQ(parse_report_formats(""), all_report_formats());
  EXPECT_EQ(parse_report_formats("json,html"), (std::set<std::string>{"html", "json"}));
  try {
    parse_report_formats("md,pdf");
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::usage);
    EXPECT_NE(e.diagnostic().message.find("'pdf'"), std::string::npos);
  }
  EXPECT_THROW(write_report(CampaignResult{}, "/tmp", {"xml"}), AdsemError);
}

TEST(AtomicWrite, ReplacesTheFileAndLeavesNoTemporary) {
  const ScratchDir dir;
  const auto file = dir.path() / "summary.json";
  write_file_atomically(file, "first");
  write_file_atomically(file, "second, longer contents");
  EXPECT_EQ(read_text_file(file), "second, longer contents");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "summary.json.tmp"));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"summary.json"});
}

TEST(AtomicWrite, FailureIsAnIoErrorNamingThePath) {
  const ScratchDir dir;
  const auto file = dir.path() / "no-such-dir" / "report.md";
  try {
    write_file_atomically(file, "x");
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::io);
    EXPECT_NE(e.diagnostic().message.find(file.string()), std::string::npos) << e.what();
  }
  // Renaming onto a directory fails after the temporary was written: it must be cleaned up.
  std::filesystem::create_directories(dir.path() / "occupied");
  std::filesystem::create_directories(dir.path() / "occupied" / "inside");
  EXPECT_THROW(write_file_atomically(dir.path() / "occupied", "x"), AdsemError);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "occupied.tmp"));
}

} // namespace
} // namespace adsem::reports::report_writer_test
