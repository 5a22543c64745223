// adsem throughput [CALC|all]: well-typed terms generated and checked per second, per property,
// on one core (properties/core/throughput.hpp); --jobs N measures N properties at once.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/jobs_option.hpp"
#include "cli/rules_option.hpp"
#include "cli/seed_option.hpp"
#include "properties/core/throughput.hpp"
#include "reports/schema_version.hpp"

namespace adsem::cli {

void add_throughput_command(CLI::App& app, CommandContext& ctx) {
  auto options = std::make_shared<props::ThroughputOptions>();
  auto jobs = std::make_shared<std::optional<std::string>>();
  auto rules_file = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "throughput",
      "Single-core throughput of every property: well-typed terms generated per second (all\n"
      "trials, discards included) and checked per second (trials that reached the check), each\n"
      "property run alone in this process with a fixed seed.");
  cmd->add_option("calculi", options->calculi, "Calculus ids or aliases, or 'all' (default)");
  cmd->add_option("--property,-p", options->properties, "Only these properties (full names)");
  cmd->add_option("--trials,-n", options->trials, "Trials per property (default 300)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--time,-t", options->seconds_per_property,
                  "Seconds per property at most (default 2)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed,-s", options->seed, "Seed (default 1)")->check(seed_validator());
  add_rules_option(*cmd, *rules_file)
      ->description("Measure one calculus with the rules of FILE joined to its semantics (the "
                    "cost of a rule file, beside the run without it). See docs/rules.md, "
                    "\"Rules that join the semantics (--rules)\"");
  add_jobs_option(*cmd, *jobs,
                  "1: the figures are per core; N properties are measured at once, each in a "
                  "worker process, and stay per-core figures while N is at most the cores");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  cmd->callback([&ctx, options, jobs, rules_file] {
    options->jobs = parse_jobs(*jobs, 1);
    options->user_rules = load_rules(ctx.registry, options->calculi, *rules_file);
    options->max_resident_bytes = ctx.max_memory_bytes;
    if (options->calculi.size() == 1 && options->calculi.front() == "all") options->calculi.clear();
    options->stop_requested = clean_stop_flag(ctx);
    if (!ctx.json)
      ctx.io.out << fmt::format("{:<56} {:<18} {:>7} {:>12} {:>12}\n", "property", "kind", "trials",
                                "generated/s", "checked/s");
    const auto rows =
        props::measure_throughput(ctx.registry, *options, [&ctx](const props::ThroughputRow& r) {
          if (!ctx.json)
            ctx.io.out << fmt::format("{:<56} {:<18} {:>7} {:>12.0f} {:>12.0f}\n", r.property,
                                      r.kind, r.trials, r.generated_per_second,
                                      r.checked_per_second)
                       << std::flush;
        });
    if (ctx.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& r : rows)
        list.push_back({{"calculus", r.calculus},
                        {"property", r.property},
                        {"kind", r.kind},
                        {"terms_per_second", r.checked_per_second},
                        {"generated_per_second", r.generated_per_second},
                        {"trials", r.trials},
                        {"checked", r.checked},
                        {"discarded", r.discarded},
                        {"seconds", r.seconds},
                        {"status", r.status}});
      ctx.io.out << reports::dump_json(
                        nlohmann::json{{reports::schema_version_key, reports::schema_version},
                                       {"rows", list}},
                        2)
                 << "\n";
    }
    if (options->stop_requested && options->stop_requested->load()) ctx.exit_code = 130;
  });
}

} // namespace adsem::cli
