#pragma once
// The data a campaign produces: one record per counterexample and one summary per property.
// Every report format (JSON Lines, summary.json, Markdown, HTML, JUnit) is written from these,
// and `adsem merge` reads them back, so the JSON form below is the archival format.
//
// JSON form: keys are the field names below. Fields that are empty (optional without a value,
// empty string, list or map, other than the ones the CLI contract fixes) are left out, and read
// back as their defaults, so to_json / *_from_json round-trip exactly. Non-finite reals are
// written as the strings "nan", "inf", "-inf" (JSON has no such numbers).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

// The declarations need only the forward declaration; the full header (25k lines) is included
// by the files that build or read JSON, not by every property through property.hpp.
#include <nlohmann/json_fwd.hpp>

#include "semantics/core/tolerance.hpp"

namespace adsem::reports {

// One side of a disagreement: what was computed, and by what ("operational", "model",
// "finite differences", "interval enclosure", ...).
struct ComputedValue {
  std::string label;
  std::string value; // surface syntax or a printed number/vector
  friend bool operator==(const ComputedValue&, const ComputedValue&) = default;
};

struct CounterexampleRecord {
  std::string calculus;
  std::string property; // full name "<calculus>/<property>"
  std::string mutant;   // "" when the calculus ran un-mutated
  std::uint64_t seed = 0;
  int trials_before = 0; // trials that passed before the failing one
  std::string outcome;   // "fail" or "error"
  std::string message;   // one line: what went wrong
  std::string term;      // shrunk term, surface syntax
  std::string source;    // the input as a standalone program `adsem type CALC` accepts, if any
  int term_size = 0;     // its size in nodes
  std::string type;      // its type, surface syntax
  std::optional<ComputedValue> expected;
  std::optional<ComputedValue> actual;
  std::optional<double> discrepancy; // |a - b|
  std::optional<Tolerance> tolerance;
  std::string tolerance_kind;     // CheckKind name, when a tolerance applies
  std::vector<std::string> trace; // rule-trace excerpt (rule names, steps)
  std::string replay_token;
  std::string replay_command; // exact `adsem replay ...` command line
  // The user's rule file the run joined to the semantics (`--rules FILE`): its path as written
  // and the hash of its text; empty without one. JSON: "rules": {"file", "hash"}.
  std::string rules_file;
  std::string rules_hash;
};

struct PropertySummary {
  std::string calculus;
  std::string name; // full name "<calculus>/<property>"
  std::string kind; // typing, adequacy, soundness, ad-correctness, cost, round-trip, ...
  std::string citation;
  int trials = 0; // passed + failed + discarded (+ errors)
  int passed = 0;
  int failed = 0;
  int discarded = 0;
  int errors = 0;
  std::map<std::string, int> discard_reasons; // reason -> count
  std::map<int, int> size_histogram;          // term size -> count
  std::map<std::string, int> tags;            // construct tag -> trials that contain it
  std::map<std::string, long> rules_fired;    // reduction rule -> times it fired, all trials
  double seconds = 0.0;
  std::optional<double> seconds_to_first_failure;
  // "passed", "failed", "untested" (fewer non-discarded trials than health.min_trials),
  // "gave-up" (RapidCheck gave up on a chunk, yet enough trials ran), "interrupted" (stopped
  // before its budget was used), "not-run" (the campaign stopped before it began),
  // "not-in-shard" (--trials gave this shard none of its chunks). Reports of older versions may
  // say "no-trials" (read as untested).
  std::string status;
  std::vector<std::string> warnings;
};

// What replaying one failure-corpus entry at the start of a campaign found.
struct CorpusOutcome {
  std::string file;     // the entry's path
  std::string property; // full name, when the entry was readable
  std::string mutant;
  std::string status;  // "reproduced" (still fails), "fixed" (passes now), "stale" (an error:
                       // unreadable, unknown property or mutant, no longer type-checks, or
                       // the token now draws another input)
  std::string message; // one line
  friend bool operator==(const CorpusOutcome&, const CorpusOutcome&) = default;
};

// The user's rule file a campaign joined to the semantics (`--rules FILE`, docs/rules.md).
struct CampaignRules {
  std::string file;                 // the path as the user wrote it
  std::string hash;                 // FNV-1a 64 of its text, 16 hex digits
  std::string calculus;             // the calculus it was compiled for
  std::vector<std::string> names;   // its rules' names as they fire (added and replacing rules)
  std::vector<std::string> removed; // the paper rules it removes
  friend bool operator==(const CampaignRules&, const CampaignRules&) = default;
};

struct CampaignResult {
  std::string adsem_version;
  std::uint64_t seed = 0;
  std::optional<int> trials_per_property;
  std::optional<double> time_budget_seconds;
  std::string shard; // "I/N"; after a merge, the merged shards joined by "," ("0/2,1/2")
  std::string mutant;
  bool complete = true;   // false when interrupted (or reconstructed from results.jsonl)
  int min_trials = 0;     // health.min_trials in force (0: unknown, an older report)
  std::string started_at; // ISO 8601 UTC
  double elapsed_seconds = 0.0;
  std::map<std::string, Tolerance> tolerances; // CheckKind name -> tolerance in force
  std::vector<PropertySummary> properties;
  std::vector<CounterexampleRecord> counterexamples;
  std::vector<std::string> warnings; // campaign-level notes (merge conflicts, reconstruction)
  // Rule coverage: calculus -> every rule it declares -> times it fired over the campaign
  // (0 = never fired: that rule was not tested).
  std::map<std::string, std::map<std::string, long>> rule_coverage;
  std::vector<CorpusOutcome> corpus; // failure-corpus entries replayed before the random trials
  // The user's rule file joined to the semantics, if any; its rules are listed in rule_coverage
  // beside the paper's.
  std::optional<CampaignRules> rules;

  // The campaign completed, every property has a passing verdict (passed, gave-up with enough
  // trials, not-in-shard), no counterexample was recorded and no corpus entry was stale. An
  // untested, interrupted or unrun property is no pass, and neither is a user rule that never
  // fired (user_rule_failures).
  bool all_passed() const;
};

// The status a summary's counters imply: "failed" (a failure or error), "untested" (fewer than
// max(min_trials, 1) non-discarded trials) or "passed". Used when `status` is empty and after
// merges.
std::string derive_status(const PropertySummary& summary, int min_trials = 1);

// The health failures of a campaign with a user's rule file: one line per rule of the file
// that never fired although the calculus's properties ran trials ("your rule 'NAME' was not
// tested: it never fired in N trials of CALC's properties"). Derived from rule_coverage, so a
// merge of shards judges the merged counts.
std::vector<std::string> user_rule_failures(const CampaignResult& result);

// Whether `rule` of `calculus` is one of the campaign's user rules (coverage marks them).
bool is_user_rule(const CampaignResult& result, const std::string& calculus,
                  const std::string& rule);

// Whether a status is a passing verdict ("passed", "gave-up", "not-in-shard").
bool is_passing_status(const std::string& status);

// How many properties have each status (shown_status), for verdict lines and summary.json.
std::map<std::string, int> status_counts(const CampaignResult& result);

// The calculus of a property summary: its `calculus` field, else the prefix of its full name.
std::string calculus_of(const PropertySummary& summary);

nlohmann::json to_json(const ComputedValue& value);
nlohmann::json to_json(const Tolerance& tolerance);
nlohmann::json to_json(const CounterexampleRecord& record);
nlohmann::json to_json(const PropertySummary& summary);
nlohmann::json to_json(const CorpusOutcome& outcome);
nlohmann::json to_json(const CampaignRules& rules);
nlohmann::json to_json(const CampaignResult& result);

// These throw AdsemError(ErrorKind::parse, ...) naming the offending field on malformed input;
// unknown keys are ignored (newer writers may add fields).
ComputedValue computed_value_from_json(const nlohmann::json& j);
Tolerance tolerance_from_json(const nlohmann::json& j);
CounterexampleRecord record_from_json(const nlohmann::json& j);
PropertySummary summary_from_json(const nlohmann::json& j);
CorpusOutcome corpus_outcome_from_json(const nlohmann::json& j);
CampaignRules campaign_rules_from_json(const nlohmann::json& j);
CampaignResult campaign_from_json(const nlohmann::json& j);

// Serialises without throwing on invalid UTF-8 in terms or messages (bytes are replaced by
// U+FFFD); indent < 0 gives one line.
std::string dump_json(const nlohmann::json& j, int indent = -1);

} // namespace adsem::reports
