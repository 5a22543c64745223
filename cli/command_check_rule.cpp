// adsem check-rule CALC FILE: regression-check user rewrite rules (docs/rules.md).
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/jobs_option.hpp"
#include "cli/seed_option.hpp"
#include "properties/core/rule_check.hpp"
#include "reports/schema_version.hpp"
#include "reports/text_file.hpp"

namespace adsem::cli {

namespace {

struct CheckRuleArgs {
  std::string calculus;
  std::string file;
  rules::CheckOptions options;
  bool no_mutants = false;
  std::optional<std::string> jobs; // --jobs as typed (parse_jobs)
};

std::string supported(const props::Registry& registry) {
  std::string out;
  for (const auto& entry : registry.calculi())
    if (entry.rule_adapter) out += (out.empty() ? "" : ", ") + entry.id;
  return out.empty() ? "none" : out;
}

} // namespace

void add_check_rule_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<CheckRuleArgs>();
  auto* cmd = app.add_subcommand(
      "check-rule",
      "Regression-check user rewrite rules (docs/rules.md): for each rule 'name: LHS --> RHS'\n"
      "of FILE, random well-typed instances in random contexts check type preservation,\n"
      "denotation preservation, and adequacy and AD correctness of the calculus's reduction\n"
      "extended by the rule; failures are shrunk. Automatic mutants of each rule show which\n"
      "the checks kill. Exit 1 when a rule fails (or its schema is ill-typed), 2 on a parse "
      "error.");
  cmd->add_option("calculus", args->calculus, "Calculus id or alias")->required();
  cmd->add_option("file", args->file, "Rule file")->required();
  cmd->add_option("--trials,-n", args->options.trials, "Trials per check of a rule (default 200)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--mutant-trials", args->options.mutant_trials,
                  "Trials per check of an automatic mutant (default 100)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed,-s", args->options.seed, "Seed (default 1)")->check(seed_validator());
  cmd->add_option("--rule,-r", args->options.only, "Check only this rule (repeatable)");
  cmd->add_flag("--no-mutants", args->no_mutants, "Skip the automatic mutants");
  add_jobs_option(*cmd, args->jobs,
                  "the cores this process may use; 1 runs every check in this process; the "
                  "result is the same for every N");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  cmd->callback([&ctx, args] {
    const int jobs = parse_jobs(args->jobs, usable_cores());
    const props::CalculusEntry& entry = calculus_named(ctx.registry, args->calculus);
    if (!entry.rule_adapter)
      throw AdsemError(ErrorKind::usage,
                       fmt::format("check-rule: calculus '{}' has no rule adapter (supported: "
                                   "{})",
                                   entry.id, supported(ctx.registry)));
    const std::string source = reports::read_text_file(args->file);
    const rules::RuleFile file = rules::parse_rule_file(source);
    rules::CheckOptions options = args->options;
    options.mutants = !args->no_mutants;
    options.jobs = jobs;
    options.max_resident_bytes = ctx.max_memory_bytes;
    options.calculus_argument = args->calculus;
    options.file_argument = args->file;
    options.command = ctx.program; // a tool built on cli::run names itself (docs/kit.md)
    const auto reports = rules::check_rules(*entry.rule_adapter, entry.id, file, options);
    const bool all_passed =
        std::ranges::all_of(reports, [](const rules::RuleReport& r) { return r.passed(); });
    if (ctx.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& r : reports)
        list.push_back(rules::to_json(r));
      ctx.io.out << reports::dump_json({{reports::schema_version_key, reports::schema_version},
                                        {"calculus", entry.id},
                                        {"file", args->file},
                                        {"seed", options.seed},
                                        {"trials", options.trials},
                                        {"passed", all_passed},
                                        {"rules", list}},
                                       2)
                 << "\n";
    } else {
      ctx.io.out << fmt::format("check-rule {} {}: {} rules, seed {}, {} trials per check\n\n",
                                entry.id, args->file, reports.size(), options.seed, options.trials)
                 << rules::report_text(reports);
    }
    ctx.exit_code = all_passed ? 0 : 1;
  });
}

} // namespace adsem::cli
