// adsem campaign: run properties under a budget and write reports.
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "properties/core/campaign.hpp"
#include "reports/report_text.hpp"
#include "reports/report_writer.hpp"

namespace adsem::cli {
namespace {

struct CampaignArgs {
  std::vector<std::string> calculi;
  std::vector<std::string> properties;
  std::optional<int> trials;
  std::optional<double> time_seconds;
  std::optional<std::uint64_t> seed;
  std::string shard = "0/1";
  std::string mutant;
  std::string report_dir;
  std::string formats = "json,md,html,junit";
  std::vector<std::string> settings;
  std::optional<int> max_size;
};

props::Overrides parse_settings(const std::vector<std::string>& settings) {
  props::Overrides overrides;
  for (const auto& s : settings) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw AdsemError(ErrorKind::usage, fmt::format("--set expects KEY=VALUE (got '{}')", s));
    overrides[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return overrides;
}

void print_text_summary(std::ostream& out, const reports::CampaignResult& result) {
  out << fmt::format("adsem campaign: seed {}, shard {}{}{}\n", result.seed, result.shard,
                     result.mutant.empty() ? "" : ", mutant " + result.mutant,
                     result.complete ? "" : " (INTERRUPTED: incomplete)");
  out << fmt::format("{:<44} {:>7} {:>7} {:>7} {:>9} {:>7}  {}\n", "property", "trials", "passed",
                     "failed", "discarded", "seconds", "status");
  for (const auto& p : result.properties)
    out << fmt::format("{:<44} {:>7} {:>7} {:>7} {:>9} {:>7.2f}  {}\n", p.name, p.trials, p.passed,
                       p.failed + p.errors, p.discarded, p.seconds, p.status);
  for (const auto& p : result.properties)
    for (const auto& w : p.warnings)
      out << fmt::format("warning: {}: {}\n", p.name, w);
  for (const auto& record : result.counterexamples)
    out << "\n" << reports::counterexample_text(record);
}

} // namespace

void add_campaign_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<CampaignArgs>();
  auto* cmd = app.add_subcommand(
      "campaign",
      "Run the properties of one or more calculi on random well-typed terms.\n"
      "Without --trials or --time the budget is 60 s of wall-clock time, split fairly over\n"
      "the selected properties. A property stops at its first counterexample, which is\n"
      "shrunk and reported with a replay command.");
  cmd->add_option("calculi", args->calculi, "Calculus ids or aliases, or 'all' (default: all)");
  cmd->add_option("--property,-p", args->properties,
                  "Only these properties (full name <calc>/<prop>, or <prop>); repeatable");
  cmd->add_option("--trials,-n", args->trials,
                  "Non-discarded trials per property (discards are counted on top)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--time,-t", args->time_seconds, "Wall-clock budget for the whole campaign, s")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--seed,-s", args->seed, "Seed (default: random, printed in the report)");
  cmd->add_option("--shard", args->shard, "Run shard I of N (0 <= I < N), e.g. 2/8");
  cmd->add_option("--mutant,-m", args->mutant, "Run against a named mutant <calc>/<mutant>");
  cmd->add_option("--report,-r", args->report_dir,
                  "Write results.jsonl (live), summary.json, report.md, report.html, junit.xml "
                  "to this folder");
  cmd->add_option("--format", args->formats, "Report formats: any of md,html,json,junit");
  cmd->add_option("--set", args->settings,
                  "Option override KEY=VALUE, e.g. tolerance.derivative.rtol=1e-6; repeatable");
  cmd->add_option("--max-size", args->max_size, "Size ceiling for generated terms")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", ctx.json, "Print the result as JSON on stdout");
  cmd->callback([&ctx, args] {
    props::CampaignOptions options;
    options.calculi = args->calculi;
    options.properties = args->properties;
    options.trials = args->trials;
    options.time_seconds = args->time_seconds;
    options.seed = args->seed ? *args->seed : std::random_device{}();
    options.shard = props::parse_shard(args->shard);
    options.mutant = args->mutant;
    options.overrides = parse_settings(args->settings);
    options.max_size = args->max_size;
    options.stop_requested = ctx.io.stop_requested;
    const auto formats = reports::parse_report_formats(args->formats);
    if (!args->report_dir.empty()) {
      const std::filesystem::path dir = args->report_dir;
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      if (ec)
        throw AdsemError(ErrorKind::io, fmt::format("cannot create report folder {}: {}",
                                                    dir.string(), ec.message()));
      std::filesystem::remove(dir / "results.jsonl", ec); // a new campaign, a new stream
      options.stream_dir = dir;
    }
    ProgressPrinter progress(ctx.io.err, ctx.io.err_is_terminal);
    options.on_progress = [&progress](const props::ProgressEvent& e) { progress(e); };

    const reports::CampaignResult result = props::run_campaign(ctx.registry, options);
    if (!args->report_dir.empty()) reports::write_report(result, args->report_dir, formats);

    if (ctx.json)
      ctx.io.out << reports::dump_json(reports::to_json(result), 2) << "\n";
    else
      print_text_summary(ctx.io.out, result);
    if (!args->report_dir.empty() && !ctx.json)
      ctx.io.out << fmt::format("\nreport written to {}/\n", args->report_dir);
    ctx.exit_code = !result.complete ? 130 : result.all_passed() ? 0 : 1;
  });
}

} // namespace adsem::cli
