#pragma once
// The failure corpus: every counterexample a campaign finds is saved as one JSON file, and the
// next campaign replays the corpus before its random trials, so a bug once found stays a test
// (the regression file of Hypothesis' example database, made explicit). Layout:
//   <corpus>/<calculus>/<property>-<hash>.json
// Each file is {"adsem_corpus": <format version>, "record": <counterexample record>}. An entry
// that cannot be read, names a property or mutant this adsem lacks, whose input no longer
// type-checks, or whose token now draws another input is "stale": an error, never a pass.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/calculus.hpp"
#include "reports/campaign_result.hpp"

namespace adsem::props {

inline constexpr int corpus_format_version = 1;

struct CorpusEntry {
  std::filesystem::path file;
  reports::CounterexampleRecord record;
};

struct CorpusContents {
  std::vector<CorpusEntry> entries;               // sorted by file path
  std::vector<reports::CorpusOutcome> unreadable; // status "stale", with the reason
};

// Saves a counterexample (idempotent: the same replay token gives the same file). Returns the
// file written. Throws AdsemError(io) when the folder cannot be written.
std::filesystem::path save_to_corpus(const std::filesystem::path& corpus,
                                     const reports::CounterexampleRecord& record);

// Reads every *.json below `corpus` (a missing folder is an empty corpus).
CorpusContents load_corpus(const std::filesystem::path& corpus);
// The same, and an entry naming a property or mutant `registry` lacks goes to `unreadable`
// (stale): no selection would ever replay it, so it would otherwise be skipped without a word.
CorpusContents load_corpus(const std::filesystem::path& corpus, const Registry& registry);

// Replays one entry: "reproduced" with the fresh record, "fixed", or "stale" with the reason.
struct CorpusReplay {
  reports::CorpusOutcome outcome;
  std::optional<reports::CounterexampleRecord> record; // when reproduced
};
// `user_rules`: the campaign's rule file (`--rules`); an entry recorded with another rule file,
// or with none when there is one, is stale here (the campaign selects only entries of its own).
CorpusReplay replay_corpus_entry(const Registry& registry, const CorpusEntry& entry,
                                 const std::string& command_name = "adsem",
                                 const std::shared_ptr<const UserRules>& user_rules = nullptr);

} // namespace adsem::props
