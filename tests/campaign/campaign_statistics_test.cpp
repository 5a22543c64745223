// A change made only for speed keeps every generated term and verdict: the statistics of a
// fixed-seed campaign (trials, passes, discards by reason, size histogram, construct tags, rule
// firings) equal the ones recorded in tests/campaign/data/ by the build before the change
// (docs/performance.md, "What made it fast"). Timing fields are left out. A change that
// is meant to change them (a generator, a rule, a rule's name) rewrites the files: the
// `properties` array of `adsem campaign CALC -p P... -n 200 -s 7 --json --no-isolate --no-corpus
// --jobs 1` without the keys that contain "second" and the slow-trials warnings, with the
// properties below.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/builtin_registry.hpp"
#include "support/cli_run.hpp"
#include "support/read_text.hpp"

namespace adsem::campaign_statistics_test {
namespace {

// The health warning about slow trials depends on the machine's load, like the seconds.
bool is_timing(const nlohmann::json& j) {
  return j.is_string() && j.get<std::string>().find("slow trials") != std::string::npos;
}

nlohmann::json without_timings(const nlohmann::json& j) {
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items())
      if (key.find("second") == std::string::npos) out[key] = without_timings(value);
    return out;
  }
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& value : j)
      if (!is_timing(value)) out.push_back(without_timings(value));
    return out;
  }
  return j;
}

// `adsem campaign CALC -p P... -n 200 -s 7 --json` in process, its properties without timings.
nlohmann::json statistics(const std::string& calculus, const std::vector<std::string>& properties) {
  static const props::Registry registry = cli::builtin_registry();
  std::vector<std::string> args = {"campaign", calculus,       "-n",          "200",    "-s", "7",
                                   "--json",   "--no-isolate", "--no-corpus", "--jobs", "1"};
  for (const std::string& p : properties) {
    args.push_back("-p");
    args.push_back(p);
  }
  const testing::CliRun run = testing::run_cli(registry, args);
  EXPECT_EQ(run.code, 0) << run.err;
  return without_timings(nlohmann::json::parse(run.out).at("properties"));
}

nlohmann::json recorded(const std::string& file) {
  const std::string text =
      testing::read_text(std::string(ADSEM_SOURCE_DIR) + "/tests/campaign/data/" + file);
  EXPECT_FALSE(text.empty()) << file;
  return nlohmann::json::parse(text);
}

void expect_same(const nlohmann::json& expected, const nlohmann::json& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(expected[i], actual[i])
        << expected[i].value("name", "?") << ": campaign statistics changed";
}

TEST(CampaignStatistics, SimpleDiffAdequacyIsUnchangedBySpeedWork) {
  expect_same(
      recorded("statistics-simple-diff.json"),
      statistics("simple-diff",
                 {"simple-diff/operational-correctness", "simple-diff/operational-completeness",
                  "simple-diff/approximation", "simple-diff/rd-matches-model"}));
}

TEST(CampaignStatistics, PerturbativeNormalisationIsUnchangedBySpeedWork) {
  expect_same(recorded("statistics-perturbative.json"),
              statistics("perturbative", {"perturbative/adequacy", "perturbative/lemma-5-5",
                                          "perturbative/strategy-agreement"}));
}

TEST(CampaignStatistics, DeltaReverseGenerationIsUnchangedBySpeedWork) {
  expect_same(
      recorded("statistics-delta-reverse.json"),
      statistics("delta-reverse", {"delta-reverse/adequacy", "delta-reverse/translation-typing"}));
}

// The checks of one closed term that enumeration calls (docs/enumeration.md, "linear-negation's
// enumeration") draw as their random bodies did: the same terms, S_rand seeds and verdicts.
TEST(CampaignStatistics, LinearNegationClosedTermChecksAreUnchangedByEnumeration) {
  expect_same(
      recorded("statistics-linear-negation.json"),
      statistics("linear-negation",
                 {"linear-negation/round-trip", "linear-negation/subject-reduction",
                  "linear-negation/normal-forms-are-values", "linear-negation/normalisation",
                  "linear-negation/step-soundness", "linear-negation/unique-normal-forms"}));
}

TEST(CampaignStatistics, PullbackAdequacyIsUnchangedBySpeedWork) {
  expect_same(recorded("statistics-pullback.json"), statistics("pullback", {"pullback/adequacy"}));
}

} // namespace
} // namespace adsem::campaign_statistics_test
