// summary.json, the campaign line of results.jsonl and kill-matrix.json say which shape they have
// (reports/schema_version.hpp); the other lines of results.jsonl do not repeat it.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_fixtures.hpp"
#include "reports/json_lines.hpp"
#include "reports/kill_matrix.hpp"
#include "reports/report_writer.hpp"
#include "reports/schema_version.hpp"
#include "reports/text_file.hpp"

namespace adsem::reports::schema_version_test {
namespace {

int version_of(const nlohmann::json& j) {
  return j.value(schema_version_key, 0);
}

TEST(SchemaVersion, SummaryJsonCarriesIt) {
  const auto j = nlohmann::json::parse(render_summary_json(testing::sample_campaign()));
  EXPECT_EQ(version_of(j), schema_version);
  // Read back and written again, it stays.
  EXPECT_EQ(version_of(to_json(campaign_from_json(j))), schema_version);
}

TEST(SchemaVersion, OnlyTheCampaignLineOfResultsJsonlCarriesIt) {
  const testing::ScratchDir dir;
  const CampaignResult campaign = testing::sample_campaign();
  {
    ResultsStream stream(dir.path());
    stream.write_campaign_start(campaign);
    stream.write(campaign.properties.front());
    stream.write(campaign.counterexamples.front());
  }
  std::istringstream lines(read_text_file(dir.path() / results_jsonl_name));
  std::string line;
  std::vector<nlohmann::json> parsed;
  while (std::getline(lines, line))
    parsed.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(parsed.size(), 3u);
  EXPECT_EQ(parsed[0].at("record"), "campaign");
  EXPECT_EQ(version_of(parsed[0]), schema_version);
  EXPECT_FALSE(parsed[1].contains(schema_version_key));
  EXPECT_FALSE(parsed[2].contains(schema_version_key));
}

TEST(SchemaVersion, KillMatrixJsonCarriesIt) {
  EXPECT_EQ(version_of(to_json(KillMatrix{})), schema_version);
}

} // namespace
} // namespace adsem::reports::schema_version_test
