// results.jsonl: flushed line by line, readable while the campaign still holds it open,
// tolerant of a truncated last line, and reconstructable into a (partial) campaign.
#include <fstream>
#include <sstream>
#include <variant>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_fixtures.hpp"
#include "reports/json_lines.hpp"
#include "reports/text_file.hpp"

namespace adsem::reports::json_lines_test {
namespace {

using testing::sample_record;
using testing::sample_summary;
using testing::ScratchDir;

int count_of_kind(const ResultsFile& file, std::size_t index) {
  int n = 0;
  for (const ResultsEntry& e : file.entries)
    n += e.index() == index ? 1 : 0;
  return n;
}

TEST(JsonLines, EachLineIsReadableWhileTheStreamIsStillOpen) {
  const ScratchDir dir;
  ResultsStream stream(dir.path() / "nested" / "report");
  EXPECT_EQ(stream.path(), dir.path() / "nested" / "report" / "results.jsonl");

  stream.write(sample_record());
  ResultsFile seen = read_results_jsonl(stream.path());
  ASSERT_EQ(seen.entries.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<CounterexampleRecord>(seen.entries[0]));
  EXPECT_EQ(std::get<CounterexampleRecord>(seen.entries[0]).term, sample_record().term);

  stream.write(sample_summary());
  seen = read_results_jsonl(stream.path());
  ASSERT_EQ(seen.entries.size(), 2u);
  EXPECT_EQ(std::get<PropertySummary>(seen.entries[1]).failed, 1);
  EXPECT_EQ(seen.unreadable_lines, 0);
}

TEST(JsonLines, OneObjectPerLineWithARecordDiscriminator) {
  const ScratchDir dir;
  {
    ResultsStream stream(dir.path());
    CounterexampleRecord record = sample_record();
    record.term = "line one\nline two"; // newlines inside must not split the line
    stream.write_campaign_start(testing::sample_campaign());
    stream.write(record);
    stream.write(sample_summary());
  }
  const std::string text = read_text_file(dir.path() / "results.jsonl");
  std::istringstream lines(text);
  std::vector<nlohmann::json> parsed;
  for (std::string line; std::getline(lines, line);)
    parsed.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(parsed.size(), 3u);
  EXPECT_EQ(parsed[0].at("record"), "campaign");
  EXPECT_FALSE(parsed[0].contains("properties")); // metadata only
  EXPECT_EQ(parsed[0].at("seed"), 7);
  EXPECT_EQ(parsed[1].at("record"), "counterexample");
  EXPECT_EQ(parsed[1].at("term"), "line one\nline two");
  EXPECT_EQ(parsed[2].at("record"), "property");
  EXPECT_EQ(parsed[2].at("name"), "simple-diff/adequacy");
}

TEST(JsonLines, TruncatedLastLineIsCountedNotFatal) {
  const ScratchDir dir;
  {
    ResultsStream stream(dir.path());
    stream.write(sample_record());
    stream.write(sample_summary());
  }
  const std::string whole = dump_json(to_json(sample_record()));
  {
    std::ofstream cut(dir.path() / "results.jsonl", std::ios::app | std::ios::binary);
    cut << whole.substr(0, whole.size() / 2); // killed mid-write
  }
  const ResultsFile seen = read_results_jsonl(dir.path() / "results.jsonl");
  EXPECT_EQ(seen.entries.size(), 2u);
  EXPECT_EQ(seen.unreadable_lines, 1);

  // A later run appending to the same file starts on a fresh line.
  {
    ResultsStream again(dir.path());
    again.write(sample_record());
  }
  const ResultsFile after = read_results_jsonl(dir.path() / "results.jsonl");
  EXPECT_EQ(after.entries.size(), 3u);
  EXPECT_EQ(after.unreadable_lines, 1);
  EXPECT_EQ(count_of_kind(after, 2), 2); // two counterexamples
}

TEST(JsonLines, PlainRecordLinesAndUnknownKinds) {
  const ScratchDir dir;
  const auto file = dir.path() / "results.jsonl";
  write_file_atomically(file, dump_json(to_json(sample_record())) + "\n\n" +
                                  R"({"record":"progress","n":3})" + "\n[1,2]\n");
  const ResultsFile seen = read_results_jsonl(file);
  ASSERT_EQ(seen.entries.size(), 1u); // no "record" field: a counterexample
  EXPECT_TRUE(std::holds_alternative<CounterexampleRecord>(seen.entries[0]));
  EXPECT_EQ(seen.unreadable_lines, 2);
}

TEST(JsonLines, MissingFileIsAnIoErrorNamingIt) {
  const ScratchDir dir;
  try {
    read_results_jsonl(dir.path() / "absent.jsonl");
    FAIL() << "expected an error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::io);
    EXPECT_NE(e.diagnostic().message.find("absent.jsonl"), std::string::npos);
  }
}

TEST(JsonLines, ReconstructsTheLastCampaignInTheFile) {
  const ScratchDir dir;
  {
    ResultsStream stream(dir.path());
    CampaignResult old_run = testing::sample_campaign();
    old_run.seed = 1;
    stream.write_campaign_start(old_run);
    stream.write(sample_summary("old/property"));

    CampaignResult run = testing::sample_campaign();
    run.seed = 99;
    stream.write_campaign_start(run);
    stream.write(testing::passing_summary("simple-diff/typing", 10));
    stream.write(testing::passing_summary("simple-diff/typing", 20)); // a later line wins
    stream.write(sample_record());                                    // its property never finished
  }
  const CampaignResult c = campaign_from_results(read_results_jsonl(dir.path() / "results.jsonl"));
  EXPECT_EQ(c.seed, 99u);
  EXPECT_FALSE(c.complete);
  ASSERT_EQ(c.properties.size(), 2u);
  EXPECT_EQ(c.properties[0].name, "simple-diff/typing");
  EXPECT_EQ(c.properties[0].trials, 20);
  EXPECT_EQ(c.properties[1].name, "simple-diff/adequacy");
  EXPECT_EQ(c.properties[1].failed, 1);
  EXPECT_EQ(c.properties[1].passed, 41); // trials_before of the record
  EXPECT_EQ(c.properties[1].status, "failed");
  ASSERT_EQ(c.counterexamples.size(), 1u);
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_NE(c.warnings.back().find("reconstructed"), std::string::npos);
}

} // namespace
} // namespace adsem::reports::json_lines_test
