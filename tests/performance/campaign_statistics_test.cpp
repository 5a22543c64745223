// A change made for speed must keep the generated terms and the verdicts: the statistics of a
// fixed-seed campaign (trials, verdicts, discard reasons, size histogram, construct tags, rule
// firings per property and over the campaign) are compared with those the build before the
// change recorded in data/campaign_statistics.json. Only properties whose hot paths were tuned
// are listed; regenerate the file (`adsem campaign CALC -p P -n 200 -s 7 --json --no-isolate
// --no-corpus`, the fields below) only when a change is meant to alter terms or verdicts.
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_registry.hpp"
#include "properties/core/campaign.hpp"

namespace adsem {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

nlohmann::json recorded() {
  std::ifstream in(std::string(ADSEM_SOURCE_DIR) +
                   "/tests/performance/data/campaign_statistics.json");
  return nlohmann::json::parse(in);
}

// The recorded statistics of `calculus`'s properties against a campaign run now.
void expect_same_statistics(const std::string& calculus) {
  const nlohmann::json want = recorded();
  props::CampaignOptions options;
  options.calculi = {calculus};
  for (const auto& p : want["properties"]) {
    const std::string name = p["name"];
    if (name.rfind(calculus + "/", 0) == 0) options.properties.push_back(name);
  }
  ASSERT_FALSE(options.properties.empty()) << calculus;
  options.trials = want["trials"].get<int>();
  options.seed = want["seed"].get<std::uint64_t>();
  const nlohmann::json got = reports::to_json(props::run_campaign(registry(), options));
  ASSERT_EQ(got["properties"].size(), options.properties.size());
  for (const auto& g : got["properties"]) {
    const auto w = std::find_if(want["properties"].begin(), want["properties"].end(),
                                [&](const nlohmann::json& p) { return p["name"] == g["name"]; });
    ASSERT_NE(w, want["properties"].end()) << g["name"];
    for (const auto& [field, value] : w->items()) {
      EXPECT_EQ(g[field], value) << g["name"] << ": " << field;
    }
  }
  EXPECT_EQ(got["rule_coverage"][calculus], want["rule_coverage"][calculus]) << calculus;
}

TEST(CampaignStatistics, DeltaReverseTermsAndVerdictsAreThoseRecorded) {
  expect_same_statistics("delta-reverse");
}

TEST(CampaignStatistics, PullbackTermsAndVerdictsAreThoseRecorded) {
  expect_same_statistics("pullback");
}

} // namespace
} // namespace adsem
