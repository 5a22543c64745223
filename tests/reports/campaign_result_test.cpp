// JSON form of the campaign data: exact round trips, omitted empty fields, the CLI's fixed
// `campaign --json` keys, non-finite reals, and errors naming the bad field.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_fixtures.hpp"
#include "reports/campaign_result.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports::campaign_result_test {
namespace {

using nlohmann::json;
using testing::sample_campaign;
using testing::sample_record;
using testing::sample_summary;

void expect_same_tolerance(const std::optional<Tolerance>& a, const std::optional<Tolerance>& b) {
  ASSERT_EQ(a.has_value(), b.has_value());
  if (a) {
    EXPECT_EQ(a->rtol, b->rtol);
    EXPECT_EQ(a->atol, b->atol);
  }
}

void expect_same_record(const CounterexampleRecord& a, const CounterexampleRecord& b) {
  EXPECT_EQ(a.calculus, b.calculus);
  EXPECT_EQ(a.property, b.property);
  EXPECT_EQ(a.mutant, b.mutant);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.trials_before, b.trials_before);
  EXPECT_EQ(a.outcome, b.outcome);
  EXPECT_EQ(a.message, b.message);
  EXPECT_EQ(a.term, b.term);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.expected, b.expected);
  EXPECT_EQ(a.actual, b.actual);
  EXPECT_EQ(a.discrepancy, b.discrepancy);
  expect_same_tolerance(a.tolerance, b.tolerance);
  EXPECT_EQ(a.tolerance_kind, b.tolerance_kind);
  EXPECT_EQ(a.trace, b.trace);
  EXPECT_EQ(a.replay_token, b.replay_token);
  EXPECT_EQ(a.replay_command, b.replay_command);
}

void expect_same_summary(const PropertySummary& a, const PropertySummary& b) {
  EXPECT_EQ(a.calculus, b.calculus);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.citation, b.citation);
  EXPECT_EQ(a.trials, b.trials);
  EXPECT_EQ(a.passed, b.passed);
  EXPECT_EQ(a.failed, b.failed);
  EXPECT_EQ(a.discarded, b.discarded);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.discard_reasons, b.discard_reasons);
  EXPECT_EQ(a.size_histogram, b.size_histogram);
  EXPECT_EQ(a.tags, b.tags);
  EXPECT_EQ(a.seconds, b.seconds);
  EXPECT_EQ(a.seconds_to_first_failure, b.seconds_to_first_failure);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.warnings, b.warnings);
}

// Round trip through text, as the files do.
json through_text(const json& j) {
  return json::parse(dump_json(j));
}

TEST(CampaignResultJson, ComputedValueAndToleranceRoundTrip) {
  const ComputedValue value{"finite differences", "[1.5, -2]"};
  EXPECT_EQ(computed_value_from_json(through_text(to_json(value))), value);
  const Tolerance tolerance{1.0 / 3.0, 1e-300};
  const Tolerance back = tolerance_from_json(through_text(to_json(tolerance)));
  EXPECT_EQ(back.rtol, tolerance.rtol);
  EXPECT_EQ(back.atol, tolerance.atol);
}

TEST(CampaignResultJson, CounterexampleRecordRoundTripsExactly) {
  const CounterexampleRecord record = sample_record();
  expect_same_record(record_from_json(through_text(to_json(record))), record);
}

TEST(CampaignResultJson, PropertySummaryRoundTripsExactly) {
  const PropertySummary summary = sample_summary();
  expect_same_summary(summary_from_json(through_text(to_json(summary))), summary);
}

TEST(CampaignResultJson, CampaignResultRoundTripsExactly) {
  const CampaignResult campaign = sample_campaign();
  const CampaignResult back = campaign_from_json(through_text(to_json(campaign)));
  EXPECT_EQ(back.adsem_version, campaign.adsem_version);
  EXPECT_EQ(back.seed, campaign.seed);
  EXPECT_EQ(back.trials_per_property, campaign.trials_per_property);
  EXPECT_EQ(back.time_budget_seconds, campaign.time_budget_seconds);
  EXPECT_EQ(back.shard, campaign.shard);
  EXPECT_EQ(back.mutant, campaign.mutant);
  EXPECT_EQ(back.complete, campaign.complete);
  EXPECT_EQ(back.started_at, campaign.started_at);
  EXPECT_EQ(back.elapsed_seconds, campaign.elapsed_seconds);
  ASSERT_EQ(back.tolerances.size(), campaign.tolerances.size());
  for (const auto& [kind, tolerance] : campaign.tolerances) {
    ASSERT_TRUE(back.tolerances.contains(kind)) << kind;
    EXPECT_EQ(back.tolerances.at(kind).rtol, tolerance.rtol);
    EXPECT_EQ(back.tolerances.at(kind).atol, tolerance.atol);
  }
  ASSERT_EQ(back.properties.size(), campaign.properties.size());
  for (std::size_t i = 0; i < campaign.properties.size(); ++i)
    expect_same_summary(back.properties[i], campaign.properties[i]);
  ASSERT_EQ(back.counterexamples.size(), 1u);
  expect_same_record(back.counterexamples[0], campaign.counterexamples[0]);
  EXPECT_EQ(back.warnings, campaign.warnings);
}

TEST(CampaignResultJson, EmptyOptionalFieldsAreOmittedAndReadBackAsDefaults) {
  CounterexampleRecord bare;
  bare.property = "perturbative/adequacy";
  const json j = to_json(bare);
  for (const char* key :
       {"mutant", "expected", "actual", "discrepancy", "tolerance", "tolerance_kind", "trace"})
    EXPECT_FALSE(j.contains(key)) << key;
  const CounterexampleRecord back = record_from_json(j);
  EXPECT_FALSE(back.expected.has_value());
  EXPECT_FALSE(back.discrepancy.has_value());
  EXPECT_FALSE(back.tolerance.has_value());
  EXPECT_TRUE(back.trace.empty());

  PropertySummary summary;
  summary.name = "bmp/typing";
  const json s = to_json(summary);
  for (const char* key : {"citation", "discard_reasons", "size_histogram", "tags",
                          "seconds_to_first_failure", "warnings"})
    EXPECT_FALSE(s.contains(key)) << key;

  const json c = to_json(CampaignResult{});
  for (const char* key : {"trials_per_property", "time_budget_seconds", "warnings"})
    EXPECT_FALSE(c.contains(key)) << key;
}

TEST(CampaignResultJson, CampaignJsonHasTheFixedCliShape) {
  const json j = to_json(sample_campaign());
  ASSERT_TRUE(j.at("properties").is_array());
  ASSERT_TRUE(j.at("counterexamples").is_array());
  const json& first = j.at("properties").at(0);
  EXPECT_EQ(first.at("name"), "simple-diff/adequacy");
  EXPECT_EQ(first.at("trials"), 100);
  EXPECT_EQ(first.at("passed"), 90);
  EXPECT_EQ(first.at("failed"), 1);
  EXPECT_EQ(first.at("discarded"), 8);
  EXPECT_EQ(j.at("counterexamples").at(0).at("term"), "(x:real. sin(x) * x) 1.5");
  // summary.json metadata
  EXPECT_EQ(j.at("seed"), 7);
  EXPECT_EQ(j.at("trials_per_property"), 100);
  EXPECT_EQ(j.at("time_budget_seconds"), 30.0);
  EXPECT_EQ(j.at("shard"), "0/2");
  EXPECT_EQ(j.at("complete"), true);
  EXPECT_EQ(j.at("all_passed"), false);
  EXPECT_EQ(j.at("tolerances").at("finite-difference").at("rtol"), 1e-5);
}

TEST(CampaignResultJson, SizeHistogramIsAListInNumericOrder) {
  const json j = to_json(sample_summary());
  ASSERT_TRUE(j.at("size_histogram").is_array());
  EXPECT_EQ(j.at("size_histogram").at(2), (json{{"size", 10}, {"count", 70}}));
  EXPECT_EQ(j.at("size_histogram").at(3), (json{{"size", 42}, {"count", 16}}));
}

TEST(CampaignResultJson, NonFiniteRealsSurviveTheRoundTrip) {
  CounterexampleRecord record = sample_record();
  record.discrepancy = std::numeric_limits<double>::quiet_NaN();
  record.tolerance = Tolerance{std::numeric_limits<double>::infinity(), 0.0};
  const json j = through_text(to_json(record));
  EXPECT_EQ(j.at("discrepancy"), "nan");
  EXPECT_EQ(j.at("tolerance").at("rtol"), "inf");
  const CounterexampleRecord back = record_from_json(j);
  ASSERT_TRUE(back.discrepancy.has_value());
  EXPECT_TRUE(std::isnan(*back.discrepancy));
  EXPECT_TRUE(std::isinf(back.tolerance->rtol));

  PropertySummary summary = sample_summary();
  summary.seconds_to_first_failure = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(*summary_from_json(through_text(to_json(summary))).seconds_to_first_failure,
            -std::numeric_limits<double>::infinity());
}

TEST(CampaignResultJson, InvalidUtf8IsReplacedNotThrown) {
  CounterexampleRecord record = sample_record();
  record.term = "x \xff y";
  const std::string text = dump_json(to_json(record));
  const CounterexampleRecord back = record_from_json(json::parse(text));
  EXPECT_EQ(back.term, "x \xEF\xBF\xBD y"); // U+FFFD
}

TEST(CampaignResultJson, MalformedInputNamesTheField) {
  json j = to_json(sample_summary());
  j["trials"] = "many";
  try {
    summary_from_json(j);
    FAIL() << "expected an error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    EXPECT_NE(e.diagnostic().message.find("\"trials\""), std::string::npos) << e.what();
  }
  json r = to_json(sample_record());
  r.erase("property");
  EXPECT_THROW(record_from_json(r), AdsemError);
  EXPECT_THROW(campaign_from_json(json::array()), AdsemError);
}

// nlohmann's get<std::uint64_t>() of -1.78e19 is a float-to-integer cast out of range, UB (found by
// fuzz_read_reports); integer fields take JSON integers in range only.
TEST(CampaignResultJson, IntegerFieldsRejectFloatsAndOutOfRangeValues) {
  const auto message_for = [](const json& r) -> std::string {
    try {
      record_from_json(r);
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
      return e.diagnostic().message;
    }
    return "accepted";
  };
  json r = to_json(sample_record());
  r["seed"] = -1.7784128332407066e19;
  EXPECT_NE(message_for(r).find("\"seed\" is not an integer in range"), std::string::npos);
  r["seed"] = -1;
  EXPECT_NE(message_for(r).find("\"seed\""), std::string::npos);
  r["seed"] = 18446744073709551615ULL;
  EXPECT_EQ(record_from_json(r).seed, 18446744073709551615ULL);
  r["term_size"] = 2.5;
  EXPECT_NE(message_for(r).find("\"term_size\""), std::string::npos);
  r["term_size"] = 4294967296LL;
  EXPECT_NE(message_for(r).find("\"term_size\""), std::string::npos);
}

TEST(CampaignResult, AllPassedOnlyWithoutFailuresErrorsOrCounterexamples) {
  CampaignResult c;
  c.properties = {testing::passing_summary("simple-diff/typing", 10),
                  testing::passing_summary("simple-diff/round-trip", 20)};
  EXPECT_TRUE(c.all_passed());
  c.properties[0].errors = 1;
  EXPECT_FALSE(c.all_passed());
  c.properties[0].errors = 0;
  c.counterexamples.push_back(sample_record());
  EXPECT_FALSE(c.all_passed());
}

TEST(CampaignResult, DeriveStatusFollowsTheCounters) {
  PropertySummary p;
  EXPECT_EQ(derive_status(p), "untested");
  p.trials = p.discarded = 5;
  EXPECT_EQ(derive_status(p), "untested"); // every trial discarded: nothing was tested
  p.trials = 6;
  p.passed = 1;
  EXPECT_EQ(derive_status(p), "passed");
  EXPECT_EQ(derive_status(p, 20), "untested"); // fewer passes than min_trials
  p.errors = 1;
  EXPECT_EQ(derive_status(p), "failed");
}

} // namespace
} // namespace adsem::reports::campaign_result_test
