// An untested property (fewer non-discarded trials than health.min_trials) is counted and shown
// as such in every report, is a JUnit failure, and `adsem merge` judges merged counts against
// min_trials.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_fixtures.hpp"
#include "reports/html_writer.hpp"
#include "reports/junit_writer.hpp"
#include "reports/markdown_writer.hpp"
#include "reports/merge.hpp"
#include "support/text_has.hpp"

namespace adsem::reports::untested_reports_test {
namespace {

using adsem::testing::has;

PropertySummary untested_summary() {
  PropertySummary p = testing::passing_summary("pullback/adequacy", 3);
  p.status = "untested";
  p.warnings = {"untested: 3 non-discarded trial(s), fewer than the 20 that health.min_trials = "
                "20 requires; the time budget ran out first"};
  return p;
}

CampaignResult campaign_with_untested() {
  CampaignResult c;
  c.seed = 1;
  c.min_trials = 20;
  c.properties = {testing::passing_summary("simple-diff/typing", 40), untested_summary()};
  return c;
}

TEST(UntestedReports, CountedInEveryFormatAndNeverAPass) {
  const CampaignResult c = campaign_with_untested();
  EXPECT_FALSE(c.all_passed());

  const auto json = to_json(c);
  EXPECT_EQ(json.at("all_passed"), false);
  EXPECT_EQ(json.at("status_counts").at("untested"), 1);
  EXPECT_EQ(json.at("status_counts").at("passed"), 1);
  EXPECT_EQ(json.at("min_trials"), 20);
  EXPECT_EQ(campaign_from_json(json).min_trials, 20);

  const std::string md = render_markdown(c);
  EXPECT_TRUE(has(md, "**FAILED**: 0 of 2 properties failed, 1 untested, 0 counterexample(s)."))
      << md;
  EXPECT_TRUE(has(md, "| **\\! untested** |")) << md;
  const std::string html = render_html(c);
  EXPECT_TRUE(has(html, "FAILED: 0 of 2 properties failed, 1 untested, 0 counterexample(s)."))
      << html;

  const std::string junit = render_junit(c);
  EXPECT_TRUE(has(junit, "failures=\"1\"")) << junit;
  EXPECT_TRUE(has(junit, "<failure message=\"untested: 3 non-discarded trial(s)\"")) << junit;
  EXPECT_TRUE(has(junit, "the time budget ran out first")) << junit;
}

TEST(UntestedReports, ReportsOfOlderVersionsSayNoTrialsWhichIsNoPass) {
  CampaignResult c;
  c.properties = {testing::passing_summary("pullback/round-trip", 0)};
  c.properties[0].status = "no-trials";
  EXPECT_FALSE(c.all_passed());
  EXPECT_TRUE(has(render_junit(c), "<failure message=\"untested: 0 non-discarded trial(s)\""));
}

TEST(UntestedReports, MergeJudgesTheSummedTrialsAgainstMinTrials) {
  // Each of two shards judged its half of min_trials (10): 12 + 12 passes are enough together,
  // 6 + 0 are not.
  CampaignResult a, b;
  a.min_trials = b.min_trials = 20;
  a.shard = "0/2";
  b.shard = "1/2";
  a.properties = {testing::passing_summary("t/enough", 12), testing::passing_summary("t/few", 6)};
  b.properties = {testing::passing_summary("t/enough", 12)};
  const CampaignResult merged = merge({a, b});
  ASSERT_EQ(merged.properties.size(), 2u);
  EXPECT_EQ(merged.properties[0].status, "passed");
  EXPECT_EQ(merged.properties[1].status, "untested");
  EXPECT_FALSE(merged.all_passed());
}

} // namespace
} // namespace adsem::reports::untested_reports_test
