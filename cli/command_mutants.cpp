// adsem mutants: the kill matrix, mutant x property.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "properties/core/kill_matrix.hpp"

namespace adsem::cli {
namespace {

nlohmann::json to_json(const props::MutantKills& m) {
  nlohmann::json cells = nlohmann::json::array();
  for (const auto& c : m.cells)
    cells.push_back({{"property", c.property},
                     {"outcome", c.outcome},
                     {"trials", c.trials},
                     {"seconds", c.seconds},
                     {"counterexample_size", c.counterexample_size}});
  nlohmann::json j = {{"name", m.name},           {"calculus", m.calculus},
                      {"bug_class", m.bug_class}, {"killed", m.killed()},
                      {"killed_by", m.killed_by}, {"properties", cells}};
  j["seconds_to_kill"] = m.seconds_to_kill ? nlohmann::json(*m.seconds_to_kill) : nullptr;
  j["trials_to_kill"] = m.trials_to_kill ? nlohmann::json(*m.trials_to_kill) : nullptr;
  return j;
}

std::string matrix_text(const std::vector<props::MutantKills>& matrix) {
  std::string out;
  int killed = 0;
  for (const auto& m : matrix) {
    killed += m.killed() ? 1 : 0;
    out += fmt::format("{:<44} {:<10} {}\n", m.name, m.killed() ? "KILLED" : "SURVIVED",
                       m.seconds_to_kill ? fmt::format("in {:.3f} s, {} trials", *m.seconds_to_kill,
                                                       m.trials_to_kill.value_or(0))
                                         : "");
    for (const auto& c : m.cells)
      out += fmt::format("    {:<52} {:<8} {:>7} trials {:>8.3f} s{}\n", c.property, c.outcome,
                         c.trials, c.seconds,
                         c.outcome == "killed"
                             ? fmt::format("  (counterexample size {})", c.counterexample_size)
                             : "");
  }
  out += fmt::format("{} of {} mutants killed\n", killed, matrix.size());
  return out;
}

} // namespace

void add_mutants_command(CLI::App& app, CommandContext& ctx) {
  auto options = std::make_shared<props::KillMatrixOptions>();
  auto* cmd = app.add_subcommand(
      "mutants", "Kill matrix: run every built-in mutant against every property of its\n"
                 "calculus until the first counterexample or the end of the budget. Exit 1 when\n"
                 "a mutant survives.");
  cmd->add_option("calculi", options->calculi, "Calculus ids or aliases, or 'all' (default)");
  cmd->add_option("--time,-t", options->seconds_per_mutant,
                  "Seconds per mutant, split over its calculus's properties (default 10)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--trials,-n", options->trials, "Non-discarded trials per property")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed,-s", options->seed, "Seed (default 1)");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  cmd->callback([&ctx, options] {
    options->stop_requested = ctx.io.stop_requested;
    options->on_mutant_done = [&ctx](const props::MutantKills& m) {
      ctx.io.err << fmt::format("{}: {}\n", m.name, m.killed() ? "killed" : "survived");
    };
    const auto matrix = props::run_kill_matrix(ctx.registry, *options);
    if (ctx.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& m : matrix) list.push_back(to_json(m));
      ctx.io.out << reports::dump_json(nlohmann::json{{"mutants", list}}, 2) << "\n";
    } else {
      ctx.io.out << matrix_text(matrix);
    }
    const bool all_killed =
        std::all_of(matrix.begin(), matrix.end(), [](const auto& m) { return m.killed(); });
    ctx.exit_code = all_killed ? 0 : 1;
  });
}

} // namespace adsem::cli
