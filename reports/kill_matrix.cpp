#include "reports/kill_matrix.hpp"

#include <algorithm>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/campaign_result.hpp"
#include "reports/kill_matrix_parts.hpp"
#include "reports/report_text.hpp"
#include "reports/schema_version.hpp"
#include "reports/text_file.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::reports {

std::vector<std::string> MutantKills::killed_by() const {
  std::vector<std::string> killers;
  for (const KillCell& c : cells)
    if (c.outcome == "killed") killers.push_back(c.property);
  return killers;
}

bool MutantKills::paper_literal() const {
  return bug_class == "paper-literal" || name.find("/paper-literal-") != std::string::npos;
}

const KillCell* MutantKills::fastest_kill() const {
  const KillCell* best = nullptr;
  for (const KillCell& c : cells)
    if (c.outcome == "killed" && (!best || c.seconds < best->seconds)) best = &c;
  return best;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

KillMatrixSummary KillMatrix::summary() const {
  KillMatrixSummary s;
  std::vector<double> times;
  for (const MutantKills& m : mutants) {
    ++s.mutants;
    if (const KillCell* kill = m.fastest_kill()) {
      ++s.killed;
      times.push_back(kill->seconds);
      if (!s.max_seconds_to_kill || kill->seconds > *s.max_seconds_to_kill) {
        s.max_seconds_to_kill = kill->seconds;
        s.slowest = m.name;
      }
    } else {
      ++s.survived;
      if (m.paper_literal()) ++s.expected_survivors;
    }
  }
  if (!times.empty()) s.median_seconds_to_kill = median(times);
  return s;
}

namespace {

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const KillCell& c) {
  nlohmann::json j = {{"property", c.property}, {"outcome", c.outcome},
                      {"trials", c.trials},     {"discarded", c.discarded},
                      {"seconds", c.seconds},   {"expected_killer", c.expected_killer}};
  if (c.counterexample_size) j["counterexample_size"] = *c.counterexample_size;
  if (!c.message.empty()) j["message"] = c.message;
  if (!c.replay_command.empty()) j["replay_command"] = c.replay_command;
  return j;
}

nlohmann::json to_json(const KillMatrixSummary& s) {
  return {{"mutants", s.mutants},
          {"killed", s.killed},
          {"survived", s.survived},
          {"expected_survivors", s.expected_survivors},
          {"all_killed", s.all_killed()},
          {"median_seconds_to_kill", optional_json(s.median_seconds_to_kill)},
          {"max_seconds_to_kill", optional_json(s.max_seconds_to_kill)},
          {"slowest", s.slowest}};
}

// One character per cell in the text grid.
char cell_mark(const KillCell* c) {
  if (!c || c->outcome == "not-run") return '-';
  if (c->outcome == "killed") return c->expected_killer ? 'K' : 'k';
  if (c->outcome == "error") return 'E';
  return c->expected_killer ? 'x' : '.';
}

} // namespace

namespace kill_matrix_detail {

std::string mode_text(const KillMatrix& m) {
  std::string budget;
  if (m.seconds_per_mutant) budget = fmt::format("{:g} s per mutant", *m.seconds_per_mutant);
  if (m.trials_per_property)
    budget += fmt::format("{}{} trials per property", budget.empty() ? "" : ", at most ",
                          *m.trials_per_property);
  return m.mode == "killers"
             ? "each mutant's declared killers only, one after the other, each with the " + budget +
                   " budget cut to the fastest kill so far"
             : "every property of the mutant's calculus; " + budget +
                   (m.seconds_per_mutant ? ", split over the properties" : "");
}

std::vector<std::pair<std::string, std::string>> run_rows(const KillMatrix& m) {
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Seed", std::to_string(m.seed)},
      {"Mode", mode_text(m)},
      {"Crash isolation", m.isolated ? "yes (a forked child per chunk)" : "no"},
      {"Complete", m.complete ? "yes" : "NO (interrupted)"}};
  if (m.rules) rows.emplace_back("Rules", rules_text(*m.rules));
  if (!m.started_at.empty()) rows.emplace_back("Started", m.started_at);
  rows.emplace_back("Elapsed", format_seconds(m.elapsed_seconds) + " s");
  if (!m.adsem_version.empty()) rows.emplace_back("adsem version", m.adsem_version);
  return rows;
}

std::string short_name(const std::string& full) {
  const auto slash = full.find('/');
  return slash == std::string::npos ? full : full.substr(slash + 1);
}

std::vector<CalculusGroup> by_calculus(const KillMatrix& matrix) {
  std::vector<CalculusGroup> groups;
  for (const MutantKills& m : matrix.mutants) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const CalculusGroup& g) { return g.calculus == m.calculus; });
    if (it == groups.end()) it = groups.insert(groups.end(), CalculusGroup{m.calculus, {}, {}});
    it->mutants.push_back(&m);
    for (const KillCell& c : m.cells)
      if (std::find(it->properties.begin(), it->properties.end(), c.property) ==
          it->properties.end())
        it->properties.push_back(c.property);
  }
  return groups;
}

const KillCell* cell_of(const MutantKills& m, const std::string& property) {
  for (const KillCell& c : m.cells)
    if (c.property == property) return &c;
  return nullptr;
}

std::string verdict(const MutantKills& m) {
  if (m.killed()) return "KILLED";
  return m.expected_survivor() ? "SURVIVED*" : "SURVIVED";
}

MutantColumns mutant_columns(const MutantKills& m) {
  MutantColumns columns;
  columns.killed_by = fmt::format("{} of {}", m.killed_by().size(), m.cells.size());
  if (const KillCell* kill = m.fastest_kill()) {
    columns.seconds = seconds_text(kill->seconds);
    columns.trials = std::to_string(kill->trials);
    if (kill->counterexample_size) columns.size = std::to_string(*kill->counterexample_size);
    columns.killer = short_name(kill->property);
  }
  return columns;
}

std::string seconds_text(double s) {
  return s < 10 ? fmt::format("{:.3f}", s) : fmt::format("{:.1f}", s);
}

std::string summary_line(const KillMatrixSummary& s) {
  std::string line = fmt::format("{} of {} mutants killed", s.killed, s.mutants);
  if (s.survived > 0)
    line +=
        fmt::format("; {} survived ({} paper-literal, expected)", s.survived, s.expected_survivors);
  if (s.median_seconds_to_kill)
    line += fmt::format("; time to kill: median {} s, max {} s ({})",
                        seconds_text(*s.median_seconds_to_kill),
                        seconds_text(*s.max_seconds_to_kill), s.slowest);
  return line;
}

std::string doc_of(const std::string& calculus) {
  return calculus == "model" ? "docs/model.md" : "docs/calculi/" + calculus + ".md";
}

} // namespace kill_matrix_detail

using namespace kill_matrix_detail;

nlohmann::json to_json(const MutantKills& m) {
  nlohmann::json cells = nlohmann::json::array();
  for (const KillCell& c : m.cells)
    cells.push_back(to_json(c));
  const KillCell* kill = m.fastest_kill();
  nlohmann::json j = {{"name", m.name},
                      {"calculus", m.calculus},
                      {"bug_class", m.bug_class},
                      {"summary", m.summary},
                      {"paper_literal", m.paper_literal()},
                      {"expected_killers", m.expected_killers},
                      {"killed", m.killed()},
                      {"expected_survivor", m.expected_survivor()},
                      {"killed_by", m.killed_by()},
                      {"seconds_to_kill", kill ? nlohmann::json(kill->seconds) : nullptr},
                      {"trials_to_kill", kill ? nlohmann::json(kill->trials) : nullptr},
                      {"counterexample_size", kill && kill->counterexample_size
                                                  ? nlohmann::json(*kill->counterexample_size)
                                                  : nullptr},
                      {"fastest_killer", kill ? nlohmann::json(kill->property) : nullptr},
                      {"cells", cells}};
  return j;
}

nlohmann::json to_json(const KillMatrix& matrix) {
  nlohmann::json list = nlohmann::json::array();
  for (const MutantKills& m : matrix.mutants)
    list.push_back(to_json(m));
  nlohmann::json j = {{schema_version_key, schema_version},
                      {"adsem_version", matrix.adsem_version},
                      {"seed", matrix.seed},
                      {"mode", matrix.mode},
                      {"seconds_per_mutant", optional_json(matrix.seconds_per_mutant)},
                      {"trials_per_property", matrix.trials_per_property
                                                  ? nlohmann::json(*matrix.trials_per_property)
                                                  : nullptr},
                      {"isolated", matrix.isolated},
                      {"complete", matrix.complete},
                      {"started_at", matrix.started_at},
                      {"elapsed_seconds", matrix.elapsed_seconds},
                      {"summary", to_json(matrix.summary())},
                      {"mutants", list}};
  if (matrix.rules) j["rules"] = to_json(*matrix.rules);
  return j;
}

std::string render_kill_matrix_text(const KillMatrix& matrix) {
  std::string out =
      fmt::format("adsem mutants: seed {}; {}{}\ncells: {}\n", matrix.seed, mode_text(matrix),
                  matrix.complete ? "" : " (INTERRUPTED)", legend_text);
  if (matrix.rules) out += fmt::format("rules: {}\n", rules_text(*matrix.rules));
  for (const CalculusGroup& g : by_calculus(matrix)) {
    out += fmt::format("\n{:<46} {:<9} {:>8} {:>7} {:>5}  {:<{}}  {}\n", g.calculus, "verdict",
                       "seconds", "trials", "size", "cells", g.properties.size(), "fastest killer");
    bool literal_note = false;
    for (const MutantKills* m : g.mutants) {
      std::string grid;
      for (const std::string& p : g.properties)
        grid += cell_mark(cell_of(*m, p));
      const MutantColumns c = mutant_columns(*m);
      const auto dash = [](const std::string& text) { return text.empty() ? "-" : text; };
      literal_note = literal_note || m->expected_survivor();
      out +=
          fmt::format("  {:<44} {:<9} {:>8} {:>7} {:>5}  {:<5}  {}\n", short_name(m->name),
                      verdict(*m), dash(c.seconds), dash(c.trials), dash(c.size), grid, c.killer);
    }
    if (literal_note)
      out += fmt::format("  * paper-literal rule as printed: an expected survivor (see {})\n",
                         doc_of(g.calculus));
    std::string legend = "  cells:";
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < g.properties.size(); ++i) {
      const std::string item = fmt::format(" {} {}", i + 1, short_name(g.properties[i]));
      if (legend.size() - line_start + item.size() > 100) {
        legend += "\n        ";
        line_start = legend.size() - 8;
      }
      legend += item;
    }
    out += legend + "\n";
  }
  return out + summary_line(matrix.summary()) + "\n";
}

std::vector<std::filesystem::path> write_kill_matrix_report(const KillMatrix& matrix,
                                                            const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw AdsemError(ErrorKind::io, fmt::format("cannot create report directory {}: {}",
                                                dir.string(), error.message()));
  const std::vector<std::pair<const char*, std::string>> files = {
      {kill_matrix_json_name, dump_json(to_json(matrix), 2) + "\n"},
      {kill_matrix_md_name, render_kill_matrix_markdown(matrix)},
      {kill_matrix_html_name, render_kill_matrix_html(matrix)}};
  std::vector<std::filesystem::path> written;
  for (const auto& [name, contents] : files) {
    write_file_atomically(dir / name, contents);
    written.push_back(dir / name);
  }
  return written;
}

} // namespace adsem::reports
