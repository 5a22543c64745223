// adsem mutants: the kill matrix, mutant x property (properties/core/kill_matrix.hpp).
#include <optional>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/jobs_option.hpp"
#include "cli/rules_option.hpp"
#include "cli/seed_option.hpp"
#include "properties/core/kill_matrix.hpp"
#include "reports/kill_matrix.hpp"
#include "reports/report_folder_lock.hpp"
#include "reports/report_text.hpp"

namespace adsem::cli {
namespace {

struct MutantsArgs {
  props::KillMatrixOptions options;
  std::string report_dir;
  std::string rules_file;          // --rules FILE
  std::optional<std::string> jobs; // --jobs as typed (parse_jobs)
};

// One stderr line per finished mutant, so a long run shows where it is.
std::string progress_line(const reports::MutantKills& m) {
  const reports::KillCell* kill = m.fastest_kill();
  if (!kill)
    return fmt::format("{}: survived{}\n", m.name,
                       m.expected_survivor() ? " (paper-literal, expected)" : "");
  return fmt::format("{}: killed in {} s by {}\n", m.name, reports::format_seconds(kill->seconds),
                     kill->property);
}

} // namespace

void add_mutants_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<MutantsArgs>();
  auto& options = args->options;
  options.isolate = true; // as `adsem campaign`: a mutant that crashes must not end the matrix
  auto* cmd = app.add_subcommand(
      "mutants",
      "Kill matrix: run every built-in mutant against every property of its calculus until the\n"
      "first counterexample or the end of the budget; print mutant x property with the kill or\n"
      "survival, seconds and trials to the first kill and the shrunk counterexample's size.\n"
      "Exit 1 when a mutant survives (paper-literal survivors, documented, aside).");
  cmd->add_option("calculi", options.calculi, "Calculus ids or aliases, or 'all' (default)");
  cmd->add_option("--mutant,-m", options.mutants, "Only these mutants (full names; repeatable)");
  add_rules_option(*cmd, args->rules_file)
      ->description("Join the rules of FILE to the calculus's semantics under every mutant (one "
                    "calculus; the mutant's patch first, then the file's): the kill matrix of "
                    "the semantics your rules make. See docs/rules.md, \"Rules that join the "
                    "semantics (--rules)\"");
  cmd->add_option("--time,-t", options.seconds_per_mutant,
                  "Seconds per mutant, split over its calculus's properties (with --killers: "
                  "the budget of each declared killer)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--trials,-n", options.trials,
                  "Non-discarded trials per property (a cap; the time budget still applies)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed,-s", options.seed, "Seed")
      ->capture_default_str()
      ->check(seed_validator());
  cmd->add_flag("--killers", options.killers_only,
                "Run only each mutant's declared killers, each with the whole budget cut to the "
                "fastest kill so far (fast; the other cells are not-run)");
  cmd->add_option("--report", args->report_dir,
                  "Write kill-matrix.json, kill-matrix.md and kill-matrix.html into this folder");
  cmd->add_flag("--isolate,!--no-isolate", options.isolate,
                "Run each chunk of trials in a forked child process (the default), so a mutant "
                "that crashes or hangs becomes an error cell; --no-isolate runs in-process");
  cmd->add_option("--trial-timeout", options.trial_timeout_seconds,
                  "With --isolate: CPU seconds one trial may use before it is killed (0 = none; "
                  "CPU, not wall clock, so a loaded machine does not time out healthy trials; a "
                  "trial that uses no CPU for as long is stuck and killed too)")
      ->capture_default_str();
  add_jobs_option(*cmd, args->jobs,
                  "the cores this process may use; the properties of a mutant run at once");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  cmd->callback([&ctx, args] {
    const int jobs = parse_jobs(args->jobs, args->options.isolate ? usable_cores() : 1);
    if (!args->options.isolate && jobs > 1)
      throw AdsemError(ErrorKind::usage,
                       fmt::format("--jobs {} needs worker processes; --no-isolate runs every "
                                   "trial in this process",
                                   *args->jobs));
    const auto user_rules = load_rules(ctx.registry, args->options.calculi, args->rules_file);
    std::optional<reports::ReportFolderLock> folder; // held until the report is written
    // A mistyped calculus or mutant must not cost the folder its earlier kill matrix.
    props::check_kill_matrix_selection(ctx.registry, args->options);
    if (!args->report_dir.empty())
      folder.emplace(reports::claim_report_folder(
          args->report_dir, {reports::kill_matrix_json_name, reports::kill_matrix_md_name,
                             reports::kill_matrix_html_name}));
    props::KillMatrixOptions options = args->options;
    options.stop_requested = clean_stop_flag(ctx);
    options.max_resident_bytes = ctx.max_memory_bytes;
    options.jobs = jobs;
    options.command_name = ctx.program;
    options.user_rules = user_rules;
    options.on_mutant_done = [&ctx](const reports::MutantKills& m) {
      ctx.io.err << progress_line(m);
    };
    const reports::KillMatrix matrix = props::run_kill_matrix(ctx.registry, options);
    if (!args->report_dir.empty()) reports::write_kill_matrix_report(matrix, args->report_dir);
    if (ctx.json) {
      ctx.io.out << reports::dump_json(reports::to_json(matrix), 2) << "\n";
    } else {
      ctx.io.out << reports::render_kill_matrix_text(matrix);
      if (!args->report_dir.empty())
        ctx.io.out << fmt::format("kill matrix written to {}/\n", args->report_dir);
    }
    ctx.exit_code = !matrix.complete ? 130 : matrix.summary().all_killed() ? 0 : 1;
  });
}

} // namespace adsem::cli
