// kill-matrix.html: one self-contained page (the campaign report's inline CSS plus a few rules,
// inline SVG, no scripts, no external resources), viewable offline.
#include <string_view>

#include <fmt/format.h>

#include "reports/html_writer.hpp"
#include "reports/kill_matrix.hpp"
#include "reports/kill_matrix_parts.hpp"
#include "reports/svg_chart.hpp"
#include "reports/text_escape.hpp"

namespace adsem::reports {
namespace {

using namespace kill_matrix_detail;

constexpr std::string_view matrix_style = R"(
table.matrix th.mutant { writing-mode: vertical-rl; transform: rotate(180deg); font-weight: normal;
  white-space: nowrap; }
table.matrix td { font-size: 0.85em; text-align: center; white-space: nowrap; }
td.killed { background: #cfe9d6; } td.killed.declared { background: #9fd4ae; font-weight: bold; }
td.missed { background: #fbe3b5; } td.error { background: #f6c9c9; } td.not-run { color: #999; }
td.survived { color: #777; }
span.literal { color: #8a5a00; }
)";

std::string run_table(const KillMatrix& m) {
  std::string rows;
  for (const auto& [key, value] : run_rows(m))
    rows += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", html_escape(key), html_escape(value));
  return "<h2>Run</h2>\n<table>\n" + rows + "</table>\n";
}

std::string chart_section(const KillMatrix& m) {
  std::vector<Bar> bars;
  for (const MutantKills& mutant : m.mutants)
    if (const KillCell* kill = mutant.fastest_kill()) bars.push_back({mutant.name, kill->seconds});
  const std::string svg =
      bar_chart_svg("seconds to kill, by mutant (fastest killing property)", bars, "s");
  return svg.empty() ? "" : "<h2>Time to kill</h2>\n<figure>" + svg + "</figure>\n";
}

std::string mutants_table(const CalculusGroup& g) {
  std::string html = "<table>\n<thead><tr><th></th><th>Mutant</th><th>Bug class</th>"
                     "<th>Verdict</th><th>Time to kill (s)</th><th>Trials</th><th>Size</th>"
                     "<th>Fastest killer</th><th>Killed by</th></tr></thead>\n<tbody>\n";
  bool literal_note = false;
  for (std::size_t i = 0; i < g.mutants.size(); ++i) {
    const MutantKills& m = *g.mutants[i];
    const MutantColumns c = mutant_columns(m);
    literal_note = literal_note || m.expected_survivor();
    const std::string verdict_class =
        m.killed() ? "passed" : (m.expected_survivor() ? "warning" : "failed");
    html +=
        fmt::format("<tr><td>M{}</td><td title=\"{}\">{}</td><td>{}</td><td class=\"{}\">{}</td>"
                    "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                    "<td>{}</td><td class=\"n\">{}</td></tr>\n",
                    i + 1, html_escape(m.summary), html_code(m.name), html_escape(m.bug_class),
                    verdict_class, html_escape(verdict(m)), c.seconds, c.trials, c.size,
                    c.killer.empty() ? "" : html_code(c.killer), c.killed_by);
  }
  html += "</tbody>\n</table>\n";
  if (literal_note)
    html += fmt::format("<p><span class=\"literal\">*</span> A rule exactly as the paper prints it "
                        "(paper-literal): an expected survivor, see {}.</p>\n",
                        html_code(doc_of(g.calculus)));
  return html;
}

std::string cell_html(const KillCell* c) {
  if (!c || c->outcome == "not-run") return "<td class=\"not-run\">-</td>";
  const std::string declared = c->expected_killer ? " declared" : "";
  const std::string title = c->message.empty() ? "" : " title=\"" + html_escape(c->message) + "\"";
  if (c->outcome == "error") return fmt::format("<td class=\"error\"{}>E</td>", title);
  if (c->outcome == "killed")
    return fmt::format("<td class=\"killed{}\"{}>{} {} s<br>{} tr, size {}</td>", declared, title,
                       c->expected_killer ? "K" : "k", seconds_text(c->seconds), c->trials,
                       c->counterexample_size ? std::to_string(*c->counterexample_size) : "?");
  return fmt::format("<td class=\"{}\">{} {} tr</td>", c->expected_killer ? "missed" : "survived",
                     c->expected_killer ? "x" : ".", c->trials);
}

std::string matrix_table(const CalculusGroup& g) {
  std::string html = "<table class=\"matrix\">\n<thead><tr><th>Property</th>";
  for (std::size_t i = 0; i < g.mutants.size(); ++i)
    html += fmt::format("<th class=\"mutant\">M{} {}</th>", i + 1,
                        html_escape(short_name(g.mutants[i]->name)));
  html += "</tr></thead>\n<tbody>\n";
  for (const std::string& p : g.properties) {
    html += "<tr><td>" + html_code(short_name(p)) + "</td>";
    for (const MutantKills* m : g.mutants)
      html += cell_html(cell_of(*m, p));
    html += "</tr>\n";
  }
  return html + "</tbody>\n</table>\n";
}

} // namespace

std::string render_kill_matrix_html(const KillMatrix& matrix) {
  const KillMatrixSummary s = matrix.summary();
  std::string html =
      fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<title>adsem kill matrix</title>\n<style>{}{}</style>\n</head>\n<body>\n"
                  "<h1>adsem kill matrix</h1>\n<p class=\"verdict {}\">{}: {}.</p>\n",
                  report_css(), matrix_style, s.all_killed() ? "passed" : "failed",
                  s.all_killed() ? "ALL KILLED" : "MUTANTS SURVIVED", html_escape(summary_line(s)));
  html += run_table(matrix) + chart_section(matrix);
  html += "<h2>Matrix</h2>\n<p>Time to kill: the seconds the fastest killing property needed, run "
          "alone, from its first trial to its shrunk counterexample. Trials count every case "
          "tried (discards included); size is the shrunk counterexample's term size.</p>\n<p>"
          "Cells: " +
          html_escape(legend_text) + ". Hover a cell for its counterexample's message.</p>\n";
  for (const CalculusGroup& g : by_calculus(matrix))
    html += "<h3>" + html_escape(g.calculus) + "</h3>\n" + mutants_table(g) + matrix_table(g);
  return html + "</body>\n</html>\n";
}

} // namespace adsem::reports
