// Merging shard reports and reading report folders back.
#include <algorithm>

#include <gtest/gtest.h>

#include "report_fixtures.hpp"
#include "reports/json_lines.hpp"
#include "reports/merge.hpp"
#include "reports/report_writer.hpp"
#include "reports/text_file.hpp"

namespace adsem::reports::merge_test {
namespace {

using testing::ScratchDir;

CampaignResult second_shard() {
  CampaignResult c = testing::sample_campaign();
  c.shard = "1/2";
  c.complete = false;
  c.started_at = "2024-05-01T11:59:58Z";
  c.elapsed_seconds = 4.0;
  PropertySummary p = testing::sample_summary();
  p.trials = 50;
  p.passed = 50;
  p.failed = p.discarded = p.errors = 0;
  p.discard_reasons = {{"fuel", 2}};
  p.size_histogram = {{3, 5}, {7, 1}};
  p.seconds = 0.75;
  p.seconds_to_first_failure.reset();
  p.status = "passed";
  c.properties = {p, testing::passing_summary("linear-negation/typing", 30)};
  CounterexampleRecord r = testing::sample_record();
  r.term = "second shard term";
  c.counterexamples = {r};
  return c;
}

TEST(Merge, SumsCountersHistogramsAndReasonsPerProperty) {
  const CampaignResult merged = merge({testing::sample_campaign(), second_shard()});
  ASSERT_EQ(merged.properties.size(), 4u);
  const PropertySummary& p = merged.properties[0];
  EXPECT_EQ(p.name, "simple-diff/adequacy");
  EXPECT_EQ(p.trials, 150);
  EXPECT_EQ(p.passed, 140);
  EXPECT_EQ(p.failed, 1);
  EXPECT_EQ(p.discarded, 8);
  EXPECT_EQ(p.errors, 1);
  EXPECT_EQ(p.discard_reasons, (std::map<std::string, int>{
                                   {"branch-boundary", 3}, {"fuel", 2}, {"undefined-point", 5}}));
  EXPECT_EQ(p.size_histogram, (std::map<int, int>{{1, 4}, {3, 15}, {7, 1}, {10, 70}, {42, 16}}));
  EXPECT_EQ(p.tags.at("grad"), 60);
  EXPECT_DOUBLE_EQ(p.seconds, 2.0);
  EXPECT_EQ(p.seconds_to_first_failure, 0.5);
  EXPECT_EQ(p.status, "failed");
  EXPECT_EQ(merged.properties[3].name, "linear-negation/typing");

  ASSERT_EQ(merged.counterexamples.size(), 2u);
  EXPECT_EQ(merged.counterexamples[1].term, "second shard term");
  EXPECT_FALSE(merged.complete);
  EXPECT_EQ(merged.shard, "0/2,1/2");
  EXPECT_EQ(merged.started_at, "2024-05-01T11:59:58Z");
  EXPECT_EQ(merged.elapsed_seconds, 4.0);
  EXPECT_EQ(merged.seed, 7u);
}

// Disagreeing metadata used to be kept from the first shard with only a warning; it is an error
// now (merge_conflicts_test.cpp has one case per field).
TEST(Merge, DisagreeingMetadataIsAnError) {
  CampaignResult other = second_shard();
  other.seed = 8;
  EXPECT_THROW(merge({testing::sample_campaign(), other}), AdsemError);
}

TEST(Merge, GaveUpShardsStayGaveUpUnlessSomethingFailed) {
  CampaignResult a, b;
  PropertySummary gave_up = testing::passing_summary("delta-reverse/cost", 0);
  gave_up.trials = gave_up.discarded = 10;
  gave_up.status = "gave-up";
  a.properties = {gave_up};
  a.shard = "0/2";
  b.properties = {testing::passing_summary("delta-reverse/cost", 5)};
  b.shard = "1/2";
  CampaignResult b_as_shard_0 = b; // two passing shards (one shard twice is an error)
  b_as_shard_0.shard = "0/2";
  EXPECT_EQ(merge({a, b}).properties[0].status, "gave-up");
  EXPECT_EQ(merge({b_as_shard_0, b}).properties[0].status, "passed");
  EXPECT_THROW(merge({}), AdsemError);
}

TEST(ReadReportDir, ReadsBackWhatWriteReportWrote) {
  const ScratchDir dir;
  write_report(testing::sample_campaign(), dir.path(), {"json"});
  const CampaignResult back = read_report_dir(dir.path());
  EXPECT_EQ(back.seed, 7u);
  ASSERT_EQ(back.properties.size(), 3u);
  EXPECT_EQ(back.properties[0].size_histogram, testing::sample_summary().size_histogram);
  ASSERT_EQ(back.counterexamples.size(), 1u);
  EXPECT_EQ(back.counterexamples[0].replay_command, testing::sample_record().replay_command);
  EXPECT_TRUE(back.complete);
  // The summary.json file itself is accepted too.
  EXPECT_EQ(read_report_dir(dir.path() / "summary.json").properties.size(), 3u);
}

TEST(ReadReportDir, FallsBackToResultsJsonl) {
  const ScratchDir dir;
  {
    ResultsStream stream(dir.path());
    stream.write_campaign_start(testing::sample_campaign());
    stream.write(testing::passing_summary("simple-diff/typing", 10));
    stream.write(testing::sample_record());
  }
  const CampaignResult back = read_report_dir(dir.path());
  EXPECT_FALSE(back.complete);
  EXPECT_EQ(back.seed, 7u);
  ASSERT_EQ(back.properties.size(), 2u);
  EXPECT_EQ(back.counterexamples.size(), 1u);
  EXPECT_FALSE(back.all_passed());
}

TEST(ReadReportDir, ErrorsNameTheFile) {
  const ScratchDir dir;
  try {
    read_report_dir(dir.path() / "missing");
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::io);
    EXPECT_NE(e.diagnostic().message.find("missing"), std::string::npos);
  }
  try {
    read_report_dir(dir.path()); // empty folder
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_NE(e.diagnostic().message.find("summary.json"), std::string::npos);
  }
  write_file_atomically(dir.path() / "summary.json", "{\"properties\": [");
  try {
    read_report_dir(dir.path());
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    EXPECT_NE(e.diagnostic().message.find((dir.path() / "summary.json").string()),
              std::string::npos)
        << e.what();
  }
  write_file_atomically(dir.path() / "summary.json", R"({"properties": [{"name": 3}]})");
  try {
    read_report_dir(dir.path());
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_NE(e.diagnostic().message.find("summary.json"), std::string::npos);
    EXPECT_NE(e.diagnostic().message.find("\"name\""), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace adsem::reports::merge_test
