// kill-matrix.md: the kill matrix as GitHub-flavoured Markdown (a CI step summary).
#include <fmt/format.h>

#include "reports/kill_matrix.hpp"
#include "reports/kill_matrix_parts.hpp"
#include "reports/markdown_writer.hpp"

namespace adsem::reports {
namespace {

using namespace kill_matrix_detail;

std::string markdown_code(const std::string& text) {
  return markdown_code_span(text, true);
}

std::string markdown_run_table(const KillMatrix& m) {
  std::string md = "| Run | |\n|---|---|\n";
  for (const auto& [key, value] : run_rows(m))
    md += fmt::format("| {} | {} |\n", key, markdown_inline_text(value));
  return md + "\n";
}

std::string markdown_mutants_table(const CalculusGroup& g) {
  std::string md = "| | Mutant | Bug class | Verdict | Time to kill (s) | Trials | Size | "
                   "Fastest killer | Killed by |\n|---|---|---|---|--:|--:|--:|---|--:|\n";
  bool literal_note = false;
  for (std::size_t i = 0; i < g.mutants.size(); ++i) {
    const MutantKills& m = *g.mutants[i];
    const MutantColumns c = mutant_columns(m);
    literal_note = literal_note || m.expected_survivor();
    md += fmt::format("| M{} | {} | {} | {} | {} | {} | {} | {} | {} |\n", i + 1,
                      markdown_code(m.name), markdown_inline_text(m.bug_class),
                      m.killed() ? "KILLED" : "**" + markdown_inline_text(verdict(m)) + "**",
                      c.seconds, c.trials, c.size, c.killer.empty() ? "" : markdown_code(c.killer),
                      c.killed_by);
  }
  if (literal_note)
    md += fmt::format("\n\\* A rule exactly as the paper prints it (paper-literal): an expected "
                      "survivor, see {}.\n",
                      markdown_code(doc_of(g.calculus)));
  return md + "\n";
}

std::string cell_text(const KillCell* c) {
  if (!c || c->outcome == "not-run") return "-";
  if (c->outcome == "error") return "E " + markdown_inline_text(c->message.substr(0, 60));
  if (c->outcome == "killed")
    return fmt::format("{} {} s / {} tr / size {}", c->expected_killer ? "**K**" : "k",
                       seconds_text(c->seconds), c->trials,
                       c->counterexample_size ? std::to_string(*c->counterexample_size) : "?");
  return fmt::format("{} {} tr", c->expected_killer ? "**x**" : ".", c->trials);
}

std::string markdown_matrix_table(const CalculusGroup& g) {
  std::string md = "| Property |";
  std::string rule = "|---|";
  for (std::size_t i = 0; i < g.mutants.size(); ++i) {
    md += fmt::format(" M{} |", i + 1);
    rule += "---|";
  }
  md += "\n" + rule + "\n";
  for (const std::string& p : g.properties) {
    md += "| " + markdown_code(short_name(p)) + " |";
    for (const MutantKills* m : g.mutants)
      md += " " + cell_text(cell_of(*m, p)) + " |";
    md += "\n";
  }
  return md + "\n";
}

} // namespace

std::string render_kill_matrix_markdown(const KillMatrix& matrix) {
  const KillMatrixSummary s = matrix.summary();
  std::string md = fmt::format("# adsem kill matrix\n\n**{}**: {}.\n\n",
                               s.all_killed() ? "ALL KILLED" : "MUTANTS SURVIVED",
                               markdown_inline_text(summary_line(s)));
  md += markdown_run_table(matrix);
  md += "Time to kill: the seconds the fastest killing property needed, run alone, from its first "
        "trial to its shrunk counterexample. Trials count every case tried (discards "
        "included); size is the shrunk counterexample's term size.\n\n"
        "Cells: " +
        markdown_inline_text(legend_text) +
        ". A killed cell gives seconds / trials / shrunk size; other cells the trials run.\n\n";
  for (const CalculusGroup& g : by_calculus(matrix))
    md += fmt::format("## {}\n\n", markdown_inline_text(g.calculus)) + markdown_mutants_table(g) +
          markdown_matrix_table(g);
  return md;
}

} // namespace adsem::reports
