// Inputs to merge that are not disjoint shards of one campaign are refused, naming the conflict:
// the same shard twice (its trials counted twice), shards of different counts, a merged report
// with one of its parts, and different seeds, mutants, versions, budgets or tolerances (which
// used to be merged with only a warning inside summary.json).
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "report_fixtures.hpp"
#include "reports/merge.hpp"
#include "support/text_has.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports::merge_conflicts_test {
namespace {

CampaignResult shard(const std::string& name) {
  CampaignResult c = testing::sample_campaign();
  c.shard = name;
  return c;
}

// The usage error merge raises, or "" when it merges.
std::string refusal(const std::vector<CampaignResult>& inputs,
                    const std::vector<std::string>& names = {"a", "b", "c"}) {
  try {
    (void)merge(inputs, names);
    return "";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::usage);
    return e.diagnostic().message;
  }
}

using adsem::testing::has;

TEST(MergeConflicts, TheSameShardTwiceIsRefused) {
  const std::string message = refusal({shard("0/2"), shard("0/2")});
  EXPECT_TRUE(has(message, "shard 0/2 is given twice (a and b)")) << message;
  EXPECT_EQ(refusal({shard("0/2"), shard("1/2")}), "");
}

TEST(MergeConflicts, ShardsOfDifferentCountsAreRefused) {
  const std::string message = refusal({shard("0/2"), shard("1/3")});
  EXPECT_TRUE(has(message, "a is a shard of 2 and b a shard of 3")) << message;
}

TEST(MergeConflicts, AMergedReportWithOneOfItsPartsIsRefused) {
  const CampaignResult merged = merge({shard("0/3"), shard("1/3")});
  EXPECT_EQ(merged.shard, "0/3,1/3");
  EXPECT_TRUE(has(refusal({merged, shard("1/3")}), "shard 1/3 is given twice"));
  EXPECT_EQ(refusal({merged, shard("2/3")}), ""); // the missing part is fine
  EXPECT_TRUE(has(refusal({shard("0/2"), shard("x")}), "shard 'x' is not I/N"));
}

TEST(MergeConflicts, DifferentCampaignsAreRefusedNamingTheField) {
  const std::vector<std::pair<std::string, std::function<void(CampaignResult&)>>> changes = {
      {"seed (7 vs 8)", [](CampaignResult& c) { c.seed = 8; }},
      {"mutant ('simple-diff/drop-accumulate' vs '')", [](CampaignResult& c) { c.mutant = ""; }},
      {"adsem version", [](CampaignResult& c) { c.adsem_version = "0.2.0"; }},
      {"trial count (100 vs 200)", [](CampaignResult& c) { c.trials_per_property = 200; }},
      {"time budget", [](CampaignResult& c) { c.time_budget_seconds = 31.0; }},
      {"exact-value tolerance", [](CampaignResult& c) { c.tolerances["exact-value"].rtol = 1e-3; }},
  };
  for (const auto& [field, change] : changes) {
    CampaignResult other = shard("1/2");
    change(other);
    const std::string message = refusal({shard("0/2"), other});
    EXPECT_TRUE(has(message, "a and b have a different " + field)) << message;
  }
}

TEST(MergeConflicts, InputsWithoutNamesAreNumbered) {
  CampaignResult other = shard("1/2");
  other.seed = 9;
  EXPECT_TRUE(has(refusal({shard("0/2"), other}, {}), "shard report 1 and shard report 2"));
}

} // namespace
} // namespace adsem::reports::merge_conflicts_test
