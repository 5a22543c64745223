#pragma once
// The kill matrix of `adsem mutants`: one row per built-in mutant, one cell per property
// of its calculus. A cell says whether the property killed the mutant (found a counterexample, a
// disagreement: an error such as a crash inside a rule does not count), how many seconds and
// trials that took, and the size of the shrunk counterexample. Written as JSON (kill-matrix.json),
// Markdown (kill-matrix.md), a self-contained offline HTML page (kill-matrix.html) and text.
//
// Time to kill: the seconds its fastest killing property needed, run alone from its first trial to
// its shrunk counterexample (shrinking included). Paper-literal mutants (bug class
// "paper-literal": a rule exactly as the paper prints it, where the spec lists an erratum) may
// legitimately survive; a surviving one is shown as an "expected survivor", never hidden.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// The declarations need only the forward declaration; the full header (25k lines) is included
// by the files that build or read JSON, not by every property through property.hpp.
#include <nlohmann/json_fwd.hpp>

#include "reports/campaign_result.hpp"

namespace adsem::reports {

struct KillCell {
  std::string property;         // full name
  std::string outcome;          // "killed", "survived", "error" (crash, timeout), "not-run"
  bool expected_killer = false; // the mutant names this property as a killer
  int trials = 0;               // cases tried, to the kill or in all
  int discarded = 0;
  double seconds = 0.0;                   // to the (shrunk) kill, or in all
  std::optional<int> counterexample_size; // shrunk term size, when killed
  std::string message;                    // the counterexample's one-line message (kill, error)
  std::string replay_command;
  friend bool operator==(const KillCell&, const KillCell&) = default;
};

struct MutantKills {
  std::string name; // full name "<calculus>/<mutant>"
  std::string calculus;
  std::string bug_class;
  std::string summary;
  std::vector<std::string> expected_killers;
  std::vector<KillCell> cells; // one per property of the calculus, in registry order

  // Derived from the cells.
  std::vector<std::string> killed_by() const;
  bool killed() const { return !killed_by().empty(); }
  bool paper_literal() const;
  // A paper-literal mutant that survived: documented in docs/calculi/<calc>.md, not a failure.
  bool expected_survivor() const { return !killed() && paper_literal(); }
  const KillCell* fastest_kill() const; // nullptr when it survived
};

struct KillMatrixSummary {
  int mutants = 0;
  int killed = 0;
  int survived = 0;                             // all survivors, expected ones included
  int expected_survivors = 0;                   // paper-literal survivors
  std::optional<double> median_seconds_to_kill; // over killed mutants
  std::optional<double> max_seconds_to_kill;
  std::string slowest; // mutant with the max time to kill
  // Every mutant killed, expected survivors aside.
  bool all_killed() const { return survived == expected_survivors; }
};

struct KillMatrix {
  std::string adsem_version;
  std::uint64_t seed = 0;
  std::string mode = "matrix"; // "matrix" (every property) or "killers" (declared killers only)
  std::optional<double> seconds_per_mutant;
  std::optional<int> trials_per_property;
  bool isolated = false;
  bool complete = true;
  std::string started_at; // ISO 8601 UTC
  double elapsed_seconds = 0.0;
  // The user's rule file joined to every mutant's campaign (`mutants CALC --rules FILE`), as the
  // campaign reports name it; none without one.
  std::optional<CampaignRules> rules;
  std::vector<MutantKills> mutants;

  KillMatrixSummary summary() const;
};

// The median of a non-empty list (mean of the middle two for an even count).
double median(std::vector<double> values);

// `adsem mutants --json` and kill-matrix.json. design.md fixes {"mutants": [{"name", "calculus",
// "killed", "killed_by", "seconds_to_kill"}]}; more fields are added, and a "summary" object.
nlohmann::json to_json(const MutantKills& mutant);
nlohmann::json to_json(const KillMatrix& matrix);

std::string render_kill_matrix_text(const KillMatrix& matrix);
std::string render_kill_matrix_markdown(const KillMatrix& matrix);
std::string render_kill_matrix_html(const KillMatrix& matrix);

inline constexpr const char* kill_matrix_json_name = "kill-matrix.json";
inline constexpr const char* kill_matrix_md_name = "kill-matrix.md";
inline constexpr const char* kill_matrix_html_name = "kill-matrix.html";

// Writes kill-matrix.json, .md and .html into dir (created if needed), each atomically; returns
// the paths. Throws AdsemError(ErrorKind::io) naming the path on failure.
std::vector<std::filesystem::path> write_kill_matrix_report(const KillMatrix& matrix,
                                                            const std::filesystem::path& dir);

} // namespace adsem::reports
