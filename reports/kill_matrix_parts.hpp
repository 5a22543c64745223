#pragma once
// Pieces the kill-matrix renderers (text, Markdown, HTML) share, so every format says the same
// thing in the same words. Internal to reports/.
#include <string>
#include <utility>
#include <vector>

#include "reports/kill_matrix.hpp"

namespace adsem::reports::kill_matrix_detail {

inline constexpr const char* legend_text =
    "K killed by a declared killer, k killed by another property, x a declared killer that did "
    "not kill, . survived, E error (crash or timeout: not a kill), - not run";

// How the matrix was run: "every property of the mutant's calculus; 20 s per mutant, ...".
std::string mode_text(const KillMatrix& matrix);

// The "Run" table of the Markdown and HTML pages: (key, plain-text value) rows.
std::vector<std::pair<std::string, std::string>> run_rows(const KillMatrix& matrix);

// "simple-diff/foo" -> "foo".
std::string short_name(const std::string& full);

// The calculi in first-seen order with their mutants, and the properties of each (in the order
// of the cells).
struct CalculusGroup {
  std::string calculus;
  std::vector<const MutantKills*> mutants;
  std::vector<std::string> properties;
};
std::vector<CalculusGroup> by_calculus(const KillMatrix& matrix);

// The cell of a property in a mutant's row, nullptr if it has none.
const KillCell* cell_of(const MutantKills& mutant, const std::string& property);

// The plain-text columns of a mutant's row ("" when it survived): time to kill, trials to kill,
// shrunk counterexample size, fastest killer (short name), "n of m" killing properties.
struct MutantColumns {
  std::string seconds, trials, size, killer, killed_by;
};
MutantColumns mutant_columns(const MutantKills& mutant);

// "KILLED", "SURVIVED", or "SURVIVED*" for an expected (paper-literal) survivor.
std::string verdict(const MutantKills& mutant);

// Seconds with 3 decimals below 10 s, 1 above.
std::string seconds_text(double seconds);

// "36 of 37 mutants killed; 1 survived (1 paper-literal, expected); time to kill: median ...".
std::string summary_line(const KillMatrixSummary& summary);

// Where a calculus's mutants are documented ("docs/calculi/<calc>.md").
std::string doc_of(const std::string& calculus);

} // namespace adsem::reports::kill_matrix_detail
