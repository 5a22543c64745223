// The campaign engine on the toy calculus: failures are found, shrunk and replayable; discards
// are counted; runs are deterministic; shards partition the work.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "properties/core/campaign.hpp"
#include "syntax/core/diagnostic.hpp"
#include "toy_calculus.hpp"

namespace adsem::campaign_engine_test {
namespace {

TEST(CampaignEngine, FalsePropertyIsFoundAndShrunkToTheMinimalInput) {
  const auto registry = testing::toy_registry();
  const auto result = props::run_campaign(registry, testing::toy_options({"toy/below-ten"}, 200));
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const auto& record = result.counterexamples.front();
  EXPECT_EQ(record.property, "toy/below-ten");
  EXPECT_EQ(record.term, "10"); // shrunk to the smallest failing n
  EXPECT_EQ(record.message, "n = 10 >= 10");
  EXPECT_TRUE(record.replay_command.starts_with("adsem replay 'adsem2."));
  ASSERT_EQ(result.properties.size(), 1u);
  EXPECT_EQ(result.properties[0].status, "failed");
  EXPECT_EQ(result.properties[0].failed, 1);
  EXPECT_FALSE(result.all_passed());
}

TEST(CampaignEngine, ReplayTokenReproducesTheShrunkCounterexample) {
  const auto registry = testing::toy_registry();
  const auto result = props::run_campaign(registry, testing::toy_options({"toy/below-ten"}, 200));
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const auto token = props::decode_replay_token(result.counterexamples[0].replay_token);
  EXPECT_EQ(token.property, "toy/below-ten");
  const auto replayed = props::replay(registry, token);
  ASSERT_TRUE(replayed.reproduced);
  ASSERT_TRUE(replayed.record);
  EXPECT_EQ(replayed.record->term, "10");
}

TEST(CampaignEngine, DiscardsAreCountedWithReasonsNeverAsPasses) {
  const auto registry = testing::toy_registry();
  const auto result =
      props::run_campaign(registry, testing::toy_options({"toy/even-discards"}, 300));
  ASSERT_EQ(result.properties.size(), 1u);
  const auto& p = result.properties[0];
  EXPECT_EQ(p.trials, p.passed + p.discarded + p.failed + p.errors);
  EXPECT_GT(p.discarded, 0);
  EXPECT_GT(p.passed, 0);
  EXPECT_EQ(p.discard_reasons.at("odd"), p.discarded);
  EXPECT_EQ(p.tags.at("triple") + p.tags.at("plain"), p.trials);
  int histogram_total = 0;
  for (const auto& [size, count] : p.size_histogram)
    histogram_total += count;
  EXPECT_EQ(histogram_total, p.trials);
  EXPECT_TRUE(result.counterexamples.empty());
}

TEST(CampaignEngine, TrialsCountIsHonoured) {
  const auto registry = testing::toy_registry();
  const auto result =
      props::run_campaign(registry, testing::toy_options({"toy/mutant-sensitive"}, 137));
  ASSERT_EQ(result.properties.size(), 1u);
  EXPECT_EQ(result.properties[0].trials, 137);
  EXPECT_EQ(result.properties[0].status, "passed");
}

TEST(CampaignEngine, MutantIsKilledAndRecordedInTheToken) {
  const auto registry = testing::toy_registry();
  auto options = testing::toy_options({"toy/mutant-sensitive"}, 100);
  options.mutant = "toy/off-by-one";
  const auto result = props::run_campaign(registry, options);
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const auto& record = result.counterexamples[0];
  EXPECT_EQ(record.mutant, "toy/off-by-one");
  EXPECT_EQ(record.term, "0");
  ASSERT_TRUE(record.expected && record.actual && record.discrepancy && record.tolerance);
  EXPECT_EQ(record.expected->value, "1");
  EXPECT_EQ(record.actual->value, "2");
  EXPECT_DOUBLE_EQ(*record.discrepancy, 1.0);
  EXPECT_EQ(props::decode_replay_token(record.replay_token).mutant, "toy/off-by-one");
}

TEST(CampaignEngine, ExceptionInABodyIsAnErrorRecordNotACrash) {
  const auto registry = testing::toy_registry();
  const auto result = props::run_campaign(registry, testing::toy_options({"toy/throws"}, 100));
  ASSERT_EQ(result.counterexamples.size(), 1u);
  EXPECT_EQ(result.counterexamples[0].outcome, "error");
  EXPECT_EQ(result.counterexamples[0].message, "exception: boom at 6");
  // The body threw before naming its input: the record shows the value RapidCheck drew.
  EXPECT_EQ(result.counterexamples[0].term, "6");
  EXPECT_EQ(result.properties[0].errors, 1);
}

// A body that reports its input (PropertyContext::report_input) and then throws gets that input
// into its error record: the reported term, not RapidCheck's raw draw. (simple-diff's trials
// report their term first; an eval error deep in an oracle once left a record with no term.)
TEST(CampaignEngine, AnErrorRecordCarriesTheInputTheBodyReported) {
  props::CalculusEntry entry;
  entry.id = "toy";
  entry.properties.push_back(props::PropertyDef{
      "toy", "toy/reports-then-throws", "toy", "reports its input, then throws", "",
      [](const props::PropertyContext& context) -> props::TrialResult {
        const int n = *rc::gen::inRange(0, 10);
        context.report_input("term number " + std::to_string(n), "src " + std::to_string(n));
        if (n > 5) throw AdsemError(ErrorKind::eval, "deep failure");
        return props::TrialResult::pass().on(std::to_string(n), "int", n);
      },
      100});
  props::Registry registry;
  registry.add(std::move(entry));
  const auto result =
      props::run_campaign(registry, testing::toy_options({"toy/reports-then-throws"}, 100));
  ASSERT_EQ(result.counterexamples.size(), 1u);
  EXPECT_EQ(result.counterexamples[0].outcome, "error");
  EXPECT_EQ(result.counterexamples[0].term, "term number 6");
  EXPECT_EQ(result.counterexamples[0].source, "src 6");
}

TEST(CampaignEngine, SameSeedSameResultsDifferentSeedDifferentTrials) {
  const auto registry = testing::toy_registry();
  const auto a = props::run_campaign(registry, testing::toy_options({}, 120, 7));
  const auto b = props::run_campaign(registry, testing::toy_options({}, 120, 7));
  auto strip_times = [](reports::CampaignResult r) {
    r.started_at.clear();
    r.elapsed_seconds = 0;
    for (auto& p : r.properties) {
      p.seconds = 0;
      p.seconds_to_first_failure.reset();
    }
    return reports::to_json(r).dump();
  };
  EXPECT_EQ(strip_times(a), strip_times(b));
  const auto c = props::run_campaign(registry, testing::toy_options({"toy/even-discards"}, 120, 8));
  const auto a_even =
      props::run_campaign(registry, testing::toy_options({"toy/even-discards"}, 120, 7));
  EXPECT_NE(nlohmann::json(c.properties[0].size_histogram).dump(),
            nlohmann::json(a_even.properties[0].size_histogram).dump());
}

TEST(CampaignEngine, ShardsPartitionTheTrials) {
  const auto registry = testing::toy_registry();
  const auto whole =
      props::run_campaign(registry, testing::toy_options({"toy/even-discards"}, 200, 3));
  std::map<int, int> merged_histogram;
  int trials = 0;
  for (int i = 0; i < 3; ++i) {
    auto options = testing::toy_options({"toy/even-discards"}, 200, 3);
    options.shard = props::Shard{i, 3};
    const auto part = props::run_campaign(registry, options);
    trials += part.properties[0].trials;
    for (const auto& [size, count] : part.properties[0].size_histogram)
      merged_histogram[size] += count;
  }
  EXPECT_EQ(trials, whole.properties[0].trials);
  EXPECT_EQ(merged_histogram, whole.properties[0].size_histogram);
}

TEST(CampaignEngine, ShardSyntaxIsChecked) {
  EXPECT_EQ(props::parse_shard("2/8").index, 2);
  EXPECT_EQ(props::parse_shard("2/8").count, 8);
  EXPECT_THROW(props::parse_shard("8/8"), AdsemError);
  EXPECT_THROW(props::parse_shard("-1/8"), AdsemError);
  EXPECT_THROW(props::parse_shard("1/0"), AdsemError);
  EXPECT_THROW(props::parse_shard("1-2"), AdsemError);
}

TEST(CampaignEngine, UnknownNamesAreUsageErrors) {
  const auto registry = testing::toy_registry();
  auto options = testing::toy_options({"toy/nope"}, 10);
  EXPECT_THROW(props::run_campaign(registry, options), AdsemError);
  options = testing::toy_options({}, 10);
  options.calculi = {"nope"};
  EXPECT_THROW(props::run_campaign(registry, options), AdsemError);
  options = testing::toy_options({}, 10);
  options.mutant = "toy/nope";
  EXPECT_THROW(props::run_campaign(registry, options), AdsemError);
}

TEST(ReplayToken, RoundTripsAndRejectsDamage) {
  props::ReplayToken token;
  token.calculus = "toy";
  token.property = "toy/below-ten";
  token.mutant = "toy/off-by-one";
  token.overrides = {{"fuel", "100"}};
  token.seed = 123456789012345ULL;
  token.max_size = 77;
  token.reproduce.size = 12;
  token.reproduce.shrinkPath = {3, 1, 4};
  const auto text = props::encode_replay_token(token);
  const auto back = props::decode_replay_token(text);
  EXPECT_EQ(back.property, token.property);
  EXPECT_EQ(back.mutant, token.mutant);
  EXPECT_EQ(back.overrides, token.overrides);
  EXPECT_EQ(back.seed, token.seed);
  EXPECT_EQ(back.max_size, token.max_size);
  EXPECT_EQ(back.reproduce, token.reproduce);
  EXPECT_THROW(props::decode_replay_token("nonsense"), AdsemError);
  EXPECT_THROW(props::decode_replay_token(text.substr(0, text.size() - 9)), AdsemError);
}

// The reproduce bytes are checked before RapidCheck reads them (found by fuzz_read_replay_token:
// an 11-byte varint made RapidCheck shift a 64-bit value by 70; a short blob made it read past
// the end). A damaged token is a usage error with a message.
TEST(ReplayToken, RejectsReproduceDataRapidCheckWouldMisread) {
  props::ReplayToken token;
  token.calculus = "toy";
  token.property = "toy/below-ten";
  token.reproduce.size = 12;
  token.reproduce.shrinkPath = {3, 1, 4};
  // The JSON inside a token ("adsem2." + base64url(JSON) + "." + checksum), re-wrapped below in
  // the first format, which has no checksum to get in the way.
  const std::string encoded = props::encode_replay_token(token);
  const std::size_t payload_start = std::string("adsem2.").size();
  auto json = nlohmann::json::parse(
      props::base64url_decode(encoded.substr(payload_start, encoded.rfind('.') - payload_start)));
  const std::string hex = json["reproduce"];
  ASSERT_EQ(hex.substr(hex.size() - 8), "03030104"); // count 3, then 3, 1, 4
  const auto with_reproduce = [&](const std::string& h) {
    json["reproduce"] = h;
    return "adsem1." + props::base64url_encode(json.dump());
  };
  EXPECT_NO_THROW(props::decode_replay_token(with_reproduce(hex)));
  const auto expect_damaged = [](const std::string& text) {
    try {
      props::decode_replay_token(text);
      ADD_FAILURE() << "accepted";
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::usage);
      EXPECT_NE(std::string(e.what()).find("damaged"), std::string::npos) << e.what();
    }
  };
  // the last step as an 11-byte varint, and as a 10-byte one with bits past the 64th
  const std::string stem = hex.substr(0, hex.size() - 2);
  expect_damaged(with_reproduce(stem + "ffffffffffffffffffff7f"));
  expect_damaged(with_reproduce(stem + "ffffffffffffffffff7f"));
  EXPECT_NO_THROW(props::decode_replay_token(with_reproduce(stem + "ffffffffffffffffff01")));
  // cut before Random's last byte (its bit index), and an index past 64
  expect_damaged(with_reproduce(hex.substr(0, 2 * 32 + 4)));
  std::string bad_index = hex;
  const std::size_t bitsi = 2 * 32 + 2 * 2; // after the key and two one-byte varints
  ASSERT_LT(bitsi, hex.size());
  bad_index.replace(bitsi, 2, "41");
  expect_damaged(with_reproduce(bad_index));
}

} // namespace
} // namespace adsem::campaign_engine_test
