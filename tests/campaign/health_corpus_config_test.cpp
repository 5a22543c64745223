// Campaign features on the toy calculus: health checks, the failure corpus (saved,
// replayed first, stale entries are errors), per-property config files, rule coverage.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/campaign_config.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/corpus.hpp"
#include "support/scratch.hpp"
#include "syntax/core/diagnostic.hpp"
#include "toy_calculus.hpp"

namespace adsem::health_corpus_config_test {
namespace {

testing::Scratch fresh_dir(const std::string& name) {
  return testing::scratch_path("feature-" + name);
}

bool has_warning(const std::vector<std::string>& warnings, const std::string& part) {
  return std::ranges::any_of(
      warnings, [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

TEST(Health, DiscardRatioAboveThePolicyIsAHealthWarning) {
  const auto registry = testing::toy_registry();
  auto options = testing::toy_options({"toy/even-discards"}, 200);
  options.health.max_discard_fraction = 0.1; // about half the toy's trials are discarded
  const auto strict = props::run_campaign(registry, options);
  ASSERT_EQ(strict.properties.size(), 1u);
  EXPECT_TRUE(has_warning(strict.properties[0].warnings, "health: "));
  EXPECT_TRUE(has_warning(strict.properties[0].warnings, "trials discarded"));
  EXPECT_TRUE(props::is_health_warning(strict.properties[0].warnings.front()));

  options.health.max_discard_fraction = 0.9;
  const auto lenient = props::run_campaign(registry, options);
  EXPECT_FALSE(has_warning(lenient.properties[0].warnings, "trials discarded"));
}

TEST(Health, ConstructsNeverOrRarelyReachedAreReported) {
  reports::PropertySummary s;
  s.name = "toy/p";
  s.calculus = "toy";
  s.trials = 100;
  s.passed = 100;
  s.seconds = 0.01;
  s.tags = {{"common", 90}, {"rare", 2}};
  const props::HealthPolicy policy;
  const auto warnings = props::property_health(s, {"common", "rare", "letrec"}, policy);
  EXPECT_TRUE(has_warning(warnings, "never reached construct 'letrec'"));
  EXPECT_TRUE(has_warning(warnings, "construct 'rare' reached in only 2 of 100"));
  EXPECT_FALSE(has_warning(warnings, "'common'"));
  // Calculus-wide: a declared construct that no property reached.
  const auto calculus = props::calculus_health("toy", {"common", "letrec"}, {s}, policy);
  ASSERT_EQ(calculus.size(), 1u);
  EXPECT_TRUE(has_warning(calculus, "'letrec'"));
  // Slow trials.
  s.seconds = 50.0;
  EXPECT_TRUE(has_warning(props::property_health(s, {}, policy), "slow trials"));
}

TEST(Corpus, CounterexamplesAreSavedAndReplayedFirst) {
  const auto registry = testing::toy_registry();
  const auto corpus = fresh_dir("corpus");
  auto options = testing::toy_options({"toy/below-ten"}, 200, 5);
  options.corpus_dir = corpus;
  const auto first = props::run_campaign(registry, options);
  ASSERT_EQ(first.counterexamples.size(), 1u);
  EXPECT_TRUE(first.corpus.empty()); // nothing to replay yet
  const auto saved = props::load_corpus(corpus);
  ASSERT_EQ(saved.entries.size(), 1u);
  EXPECT_EQ(saved.entries[0].record.term, "10");

  // Another seed: the corpus entry fails the property before any random trial.
  options.seed = 6;
  const auto second = props::run_campaign(registry, options);
  ASSERT_EQ(second.corpus.size(), 1u);
  EXPECT_EQ(second.corpus[0].status, "reproduced") << second.corpus[0].message;
  ASSERT_EQ(second.counterexamples.size(), 1u);
  EXPECT_EQ(second.counterexamples[0].term, "10");
  EXPECT_EQ(second.properties[0].status, "failed");
  EXPECT_EQ(second.properties[0].trials, 1);
}

TEST(Corpus, AFixedEntryPassesAndStaleEntriesAreErrors) {
  const auto registry = testing::toy_registry();
  const auto corpus = fresh_dir("corpus-stale");
  // A counterexample found under the mutant, then recorded as if un-mutated: it passes now.
  auto options = testing::toy_options({"toy/mutant-sensitive"}, 100, 3);
  options.mutant = "toy/off-by-one";
  const auto found = props::run_campaign(registry, options);
  ASSERT_EQ(found.counterexamples.size(), 1u);
  auto record = found.counterexamples[0];
  auto token = props::decode_replay_token(record.replay_token);
  token.mutant = "";
  record.mutant = "";
  record.replay_token = props::encode_replay_token(token);
  props::save_to_corpus(corpus, record);
  // A token naming a property this adsem lacks.
  auto gone = record;
  token.property = "toy/removed-property";
  gone.property = token.property;
  gone.replay_token = props::encode_replay_token(token);
  props::save_to_corpus(corpus, gone);
  // A file from a future corpus format.
  std::ofstream(corpus / "toy" / "future.json") << R"({"adsem_corpus": 99, "record": {}})";

  auto rerun = testing::toy_options({"toy/mutant-sensitive"}, 30, 4);
  rerun.corpus_dir = corpus;
  const auto result = props::run_campaign(registry, rerun);
  int fixed = 0, stale = 0;
  for (const auto& c : result.corpus) {
    fixed += c.status == "fixed";
    stale += c.status == "stale";
  }
  EXPECT_EQ(fixed, 1);
  EXPECT_EQ(stale, 2); // the future-format file and the removed property
  EXPECT_FALSE(result.all_passed()) << "a stale corpus entry is an error, never a pass";

  const auto replayed =
      props::replay_corpus_entry(registry, props::CorpusEntry{corpus / "gone.json", gone});
  EXPECT_EQ(replayed.outcome.status, "stale");
  EXPECT_NE(replayed.outcome.message.find("no longer exists"), std::string::npos);
}

TEST(Config, PerPropertySettingsAndLocatedErrors) {
  const auto registry = testing::toy_registry();
  const auto dir = fresh_dir("config");
  std::filesystem::create_directories(dir);
  const auto file = dir / "adsem.toml";
  std::ofstream(file) << "# campaign settings\n"
                         "[campaign]\n"
                         "time = 12.5\n"
                         "seed = 7\n"
                         "set = [\"tolerance.derivative.rtol=1e-6\"]\n"
                         "\n"
                         "[health]\n"
                         "max_discard_fraction = 0.25\n"
                         "\n"
                         "[\"toy/mutant-sensitive\"]\n"
                         "trials = 40\n"
                         "max_size = 9\n";
  const auto config = cli::read_campaign_config(file, registry);
  EXPECT_EQ(config.time_seconds, 12.5);
  EXPECT_EQ(config.seed, 7u);
  EXPECT_EQ(config.settings, std::vector<std::string>{"tolerance.derivative.rtol=1e-6"});
  EXPECT_EQ(config.health.max_discard_fraction, 0.25);
  ASSERT_TRUE(config.properties.contains("toy/mutant-sensitive"));
  EXPECT_EQ(config.properties.at("toy/mutant-sensitive").trials, 40);
  EXPECT_EQ(config.properties.at("toy/mutant-sensitive").max_size, 9);

  // The per-property trial count replaces the campaign's.
  auto options = testing::toy_options({"toy/mutant-sensitive", "toy/even-discards"}, 300);
  options.property_config = config.properties;
  const auto result = props::run_campaign(registry, options);
  ASSERT_EQ(result.properties.size(), 2u);
  for (const auto& p : result.properties) // in registry order
    EXPECT_EQ(p.passed, p.name == "toy/mutant-sensitive" ? 40 : 300) << p.name;

  std::ofstream(file) << "[campaign]\ntime = 3\n\n[\"toy/even-discards\"]\ntrails = 4\n";
  try {
    cli::read_campaign_config(file, registry);
    FAIL() << "a misspelt key must be an error";
  } catch (const AdsemError& e) {
    EXPECT_NE(e.diagnostic().message.find("adsem.toml:5"), std::string::npos)
        << e.diagnostic().message;
    EXPECT_NE(e.diagnostic().message.find("trails"), std::string::npos);
  }
  std::ofstream(file) << "[\"toy/no-such-property\"]\ntrials = 4\n";
  EXPECT_THROW(cli::read_campaign_config(file, registry), AdsemError);
}

TEST(RuleCoverage, RulesThatNeverFiredAreListedWithZero) {
  props::CalculusEntry calc;
  calc.id = "rules";
  calc.rules = {"beta", "eta", "never"};
  calc.properties.push_back(
      props::PropertyDef{"rules", "rules/fires", "toy", "fires beta twice and eta once", "",
                         [](const props::PropertyContext&) {
                           auto r = props::TrialResult::pass().on("t", "T", 1);
                           r.rules_fired = {{"beta", 2}, {"eta", 1}};
                           return r;
                         },
                         10});
  props::Registry registry;
  registry.add(std::move(calc));
  props::CampaignOptions options;
  options.trials = 10;
  const auto result = props::run_campaign(registry, options);
  ASSERT_TRUE(result.rule_coverage.contains("rules"));
  const auto& coverage = result.rule_coverage.at("rules");
  EXPECT_EQ(coverage.at("beta"), 20);
  EXPECT_EQ(coverage.at("eta"), 10);
  EXPECT_EQ(coverage.at("never"), 0);
  // And it survives the archival JSON form.
  const auto back = reports::campaign_from_json(reports::to_json(result));
  EXPECT_EQ(back.rule_coverage, result.rule_coverage);
}

} // namespace
} // namespace adsem::health_corpus_config_test

namespace adsem::health_corpus_config_test {
namespace {

TEST(Selection, ByPropertyKindAndUnknownKindIsAUsageError) {
  const auto registry = testing::toy_registry();
  props::CampaignOptions options;
  options.calculi = {"toy"};
  options.kinds = {"toy"};
  EXPECT_EQ(props::select_properties(registry, options).size(), 4u);
  options.kinds = {"soundness"};
  EXPECT_THROW(props::select_properties(registry, options), AdsemError);
}

} // namespace
} // namespace adsem::health_corpus_config_test
