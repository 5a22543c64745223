// A corpus entry naming a property or mutant this adsem does not have is stale (an error, exit
// 1), as docs/campaigns.md says: no selection would ever replay it, and it used to be skipped
// without a word.
#include <filesystem>

#include <gtest/gtest.h>

#include "properties/core/corpus.hpp"
#include "support/cli_run.hpp"
#include "support/scratch.hpp"
#include "toy_calculus.hpp"

namespace adsem::corpus_unknown_names_test {
namespace {

testing::Scratch fresh_dir(const std::string& name) {
  return testing::fresh_dir("corpus-names-" + name);
}

reports::CounterexampleRecord record_for(std::string property, std::string mutant) {
  reports::CounterexampleRecord record;
  record.calculus = "toy";
  record.property = std::move(property);
  record.mutant = std::move(mutant);
  record.term = "10";
  record.replay_token = "adsem1.e30"; // never decoded: the names are checked first
  return record;
}

testing::CliRun campaign_with(const std::filesystem::path& corpus) {
  return testing::run_cli(testing::toy_registry(),
                          {"campaign", "toy", "-p", "even-discards", "-n", "20", "--seed", "1",
                           "--no-config", "--corpus", corpus.string()});
}

TEST(CorpusNames, AnEntryForAPropertyThisAdsemLacksIsStale) {
  const auto corpus = fresh_dir("property");
  props::save_to_corpus(corpus, record_for("toy/removed-property", ""));
  const auto run = campaign_with(corpus);
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("corpus: stale toy/removed-property: property toy/removed-property no "
                         "longer exists"),
            std::string::npos)
      << run.out;
}

TEST(CorpusNames, AnEntryForAMutantThisAdsemLacksIsStale) {
  const auto corpus = fresh_dir("mutant");
  props::save_to_corpus(corpus, record_for("toy/even-discards", "toy/removed-mutant"));
  const auto run = campaign_with(corpus);
  EXPECT_EQ(run.code, 1) << run.out;
  EXPECT_NE(run.out.find("mutant toy/removed-mutant no longer exists"), std::string::npos)
      << run.out;
}

TEST(CorpusNames, EntriesOfKnownPropertiesOutsideTheSelectionAreNotStale) {
  const auto corpus = fresh_dir("unselected");
  props::save_to_corpus(corpus, record_for("toy/below-ten", ""));
  const auto contents = props::load_corpus(corpus, testing::toy_registry());
  EXPECT_EQ(contents.entries.size(), 1u);
  EXPECT_TRUE(contents.unreadable.empty());
  EXPECT_EQ(campaign_with(corpus).code, 0); // toy/below-ten is not selected
}

} // namespace
} // namespace adsem::corpus_unknown_names_test
