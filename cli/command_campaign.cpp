// adsem campaign: run properties under a budget and write reports.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "cli/campaign_config.hpp"
#include "cli/command.hpp"
#include "cli/jobs_option.hpp"
#include "cli/progress.hpp"
#include "cli/rules_option.hpp"
#include "cli/seed_option.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/option_keys.hpp"
#include "reports/report_folder_lock.hpp"
#include "reports/report_text.hpp"
#include "reports/report_writer.hpp"

namespace adsem::cli {
namespace {

struct CampaignArgs {
  std::vector<std::string> calculi;
  std::vector<std::string> properties;
  std::vector<std::string> kinds;
  std::optional<int> trials;
  std::optional<std::string> time_text; // --time as typed (parse_time_budget)
  std::optional<std::uint64_t> seed;
  std::string shard = "0/1";
  std::string mutant;
  std::string rules_file; // --rules FILE
  std::string report_dir;
  std::string formats = "json,md,html,junit";
  std::vector<std::string> settings;
  std::optional<int> max_size;
  std::string config_file;
  bool no_config = false;
  std::optional<std::string> corpus_dir;
  bool no_corpus = false;
  bool strict_health = false;
  // Crash isolation (properties/core/isolation.hpp), on by default: one fork per chunk of 25
  // trials cost nothing measurable (docs/reliability.md).
  bool isolate = true;
  double trial_timeout = props::CampaignOptions{}.trial_timeout_seconds;
  std::optional<std::string> jobs; // --jobs as typed (parse_jobs)
};

// The default failure corpus, used unless a mutant runs or a rule file joins the semantics
// (their counterexamples are expected, not regressions) or --no-corpus is given. A corpus given
// under --rules keeps each rule file's entries apart (by the file's hash).
constexpr const char* default_corpus_dir = "adsem-corpus";

// --time: a finite number of seconds > 0. The error quotes the value as typed (not a parsed
// -0 or a bound such as the largest double).
double parse_time_budget(const std::string& text) {
  double seconds = 0.0;
  const char* const end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, seconds);
  if (text.empty() || ec != std::errc{} || stop != end || !std::isfinite(seconds) || !(seconds > 0))
    throw AdsemError(ErrorKind::usage,
                     fmt::format("--time expects a finite number of seconds > 0 (got '{}')", text));
  return seconds;
}

props::Overrides parse_settings(const std::vector<std::string>& settings) {
  props::Overrides overrides;
  for (const auto& s : settings) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw AdsemError(ErrorKind::usage, fmt::format("--set expects KEY=VALUE (got '{}')", s));
    overrides[s.substr(0, eq)] = s.substr(eq + 1);
  }
  props::check_option_keys(overrides, "--set");
  return overrides;
}

// A calculus all of whose properties ran (coverage of a subset is partial by construction).
bool ran_every_property(const props::Registry& registry, const reports::CampaignResult& result,
                        const std::string& calculus) {
  const props::CalculusEntry* entry = registry.find(calculus);
  if (!entry) return false;
  return std::ranges::all_of(entry->properties, [&](const props::PropertyDef& def) {
    return std::ranges::any_of(result.properties, [&](const reports::PropertySummary& p) {
      return p.name == def.name && p.trials > 1;
    });
  });
}

// A rule the calculus's book declares unfireable in its reading (RuleInfo::unfireable, e.g.
// simple-diff's O-ctx, realised as premises) is listed in the coverage table but not expected
// to fire, so its zero count is no warning.
bool expected_to_fire(const props::Registry& registry, const std::string& calculus,
                      const std::string& rule) {
  const props::CalculusEntry* entry = registry.find(calculus);
  if (!entry) return true;
  return std::ranges::none_of(entry->rule_table, [&](const RuleInfo& info) {
    return info.name == rule && !info.unfireable.empty();
  });
}

void print_text_summary(std::ostream& out, const reports::CampaignResult& result,
                        const props::Registry& registry) {
  out << fmt::format("adsem campaign: seed {}, shard {}{}{}\n", result.seed, result.shard,
                     result.mutant.empty() ? "" : ", mutant " + result.mutant,
                     result.complete ? "" : " (INTERRUPTED: incomplete)");
  if (result.rules) out << fmt::format("rules: {}\n", reports::rules_text(*result.rules));
  out << fmt::format("{:<44} {:>7} {:>7} {:>7} {:>9} {:>7}  {}\n", "property", "trials", "passed",
                     "failed", "discarded", "seconds", "status");
  for (const auto& p : result.properties)
    out << fmt::format("{:<44} {:>7} {:>7} {:>7} {:>9} {:>7.2f}  {}\n", p.name, p.trials, p.passed,
                       p.failed + p.errors, p.discarded, p.seconds, p.status);
  for (const auto& p : result.properties)
    for (const auto& w : p.warnings)
      out << fmt::format("warning: {}: {}\n", p.name, w);
  for (const auto& w : result.warnings)
    out << fmt::format("warning: {}\n", w);
  for (const auto& c : result.corpus)
    out << fmt::format("corpus: {} {}: {} ({})\n", c.status, c.property.empty() ? "?" : c.property,
                       c.message, c.file);
  // The report always has the coverage table; the text flags never-fired rules only when every
  // property of the calculus ran random trials.
  // The user's rules (--rules) are listed whether they fired or not; one that never fired is a
  // health failure of the campaign, not a warning.
  for (const auto& [calculus, rules] : result.rule_coverage)
    for (const auto& [rule, times] : rules) {
      const std::string note = reports::rule_coverage_note(result, calculus, rule);
      if (note == "your rule" && times > 0)
        out << fmt::format("rules: {}: your rule '{}' fired {} times\n", calculus, rule, times);
      else if (times == 0 && note.empty() && expected_to_fire(registry, calculus, rule) &&
               ran_every_property(registry, result, calculus))
        out << fmt::format("warning: {}: rule {} never fired: it was not tested\n", calculus, rule);
    }
  for (const std::string& failure : reports::user_rule_failures(result))
    out << fmt::format("health failure: {}\n", failure);
  for (const auto& record : result.counterexamples)
    out << "\n" << reports::counterexample_text(record);
}

} // namespace

void add_campaign_command(CLI::App& app, CommandContext& ctx) {
  add_campaign_like_command(
      app, ctx, "campaign",
      "Run the properties of one or more calculi on random well-typed terms.\n"
      "Without --trials or --time the budget is 60 s of wall-clock time, shared over the\n"
      "selected properties: each first runs the trials health.min_trials asks for, then the\n"
      "rest is split fairly. A property with fewer is untested and fails the campaign. A\n"
      "property stops at its first counterexample, which is shrunk and reported with a\n"
      "replay command. With --rules FILE every property of one calculus runs on its rules\n"
      "joined by the file's (docs/rules.md); a rule of the file that never fires fails it.",
      std::nullopt);
}

void add_campaign_like_command(CLI::App& app, CommandContext& ctx, const std::string& name,
                               const std::string& description,
                               const std::optional<std::string>& fixed_calculus) {
  auto args = std::make_shared<CampaignArgs>();
  auto* cmd = app.add_subcommand(name, description);
  if (fixed_calculus)
    args->calculi = {*fixed_calculus};
  else
    cmd->add_option("calculi", args->calculi, "Calculus ids or aliases, or 'all' (default: all)");
  cmd->add_option("--property,-p", args->properties,
                  "Only these properties (full name <calc>/<prop>, or <prop>); repeatable");
  cmd->add_option("--kind,-k", args->kinds,
                  "Only properties of this kind (adequacy, soundness, ad-correctness, cost, ...); "
                  "repeatable");
  cmd->add_option("--trials,-n", args->trials,
                  "Non-discarded trials per property (discards are counted on top)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--time,-t", args->time_text,
                  "Wall-clock budget for the whole campaign, s (> 0); see docs/campaigns.md for "
                  "how it is shared and what `campaign all` needs");
  cmd->add_option("--seed,-s", args->seed, "Seed (default: random, printed in the report)")
      ->check(seed_validator());
  cmd->add_option("--shard", args->shard, "Run shard I of N (0 <= I < N), e.g. 2/8");
  cmd->add_option("--mutant,-m", args->mutant, "Run against a named mutant <calc>/<mutant>");
  add_rules_option(*cmd, args->rules_file);
  cmd->add_option("--report,-r", args->report_dir,
                  "Write results.jsonl (live), summary.json, report.md, report.html, junit.xml "
                  "to this folder");
  cmd->add_option("--format", args->formats, "Report formats: any of md,html,json,junit");
  cmd->add_option("--set", args->settings,
                  "Option override KEY=VALUE, e.g. tolerance.derivative.rtol=1e-6; repeatable");
  cmd->add_option("--max-size", args->max_size, "Size ceiling for generated terms")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--config", args->config_file,
                  fmt::format("Campaign config file (TOML; default: ./{} when present). See "
                              "docs/campaigns.md; flags win over the file",
                              default_config_name));
  cmd->add_flag("--no-config", args->no_config, "Ignore ./adsem.toml");
  cmd->add_option("--corpus", args->corpus_dir,
                  fmt::format("Failure corpus folder: replayed first, new counterexamples saved "
                              "(default: ./{}; off under --mutant and --rules unless given)",
                              default_corpus_dir));
  cmd->add_flag("--no-corpus", args->no_corpus, "Neither replay nor save a failure corpus");
  cmd->add_flag("--strict-health", args->strict_health,
                "Health warnings (too many discards, constructs not reached, slow trials) fail "
                "the campaign with exit code 1");
  cmd->add_flag("--isolate,!--no-isolate", args->isolate,
                "Run each chunk of trials in a forked child process (the default): a trial that "
                "crashes (segfault, abort) or exceeds --trial-timeout becomes a counterexample "
                "with outcome crash/timeout and the campaign goes on; --no-isolate runs them "
                "in-process");
  cmd->add_option("--trial-timeout", args->trial_timeout,
                  "With --isolate: CPU seconds one trial may use before it is killed (0 = none; "
                  "CPU, not wall clock, so a loaded machine does not time out healthy trials; a "
                  "trial that uses no CPU for as long is stuck and killed too)")
      ->capture_default_str();
  add_jobs_option(*cmd, args->jobs,
                  "the cores this process may use; with --trials the result is the same for "
                  "every N");
  cmd->add_flag("--json", ctx.json, "Print the result as JSON on stdout");
  cmd->callback([&ctx, args, cmd] {
    std::optional<CampaignConfig> config;
    if (!args->no_config) {
      if (!args->config_file.empty())
        config = read_campaign_config(args->config_file, ctx.registry);
      else if (std::filesystem::exists(default_config_name))
        config = read_campaign_config(default_config_name, ctx.registry);
    }
    const CampaignConfig file = config.value_or(CampaignConfig{});
    const bool budget_flags = cmd->count("--trials") > 0 || cmd->count("--time") > 0;

    props::CampaignOptions options;
    options.command_name = ctx.program;
    options.calculi = args->calculi;
    options.properties = args->properties;
    options.kinds = args->kinds;
    options.trials = budget_flags ? args->trials : file.trials;
    options.time_seconds = !budget_flags ? file.time_seconds
                           : args->time_text
                               ? std::optional<double>(parse_time_budget(*args->time_text))
                               : std::nullopt;
    options.seed = args->seed ? *args->seed : file.seed ? *file.seed : std::random_device{}();
    options.shard = props::parse_shard(args->shard);
    options.mutant = args->mutant;
    options.overrides = parse_settings(file.settings);
    for (const auto& [key, value] : parse_settings(args->settings))
      options.overrides[key] = value;
    options.max_size = args->max_size ? args->max_size : file.max_size;
    options.health = file.health;
    options.property_config = file.properties;
    if (args->report_dir.empty() && file.report_dir) args->report_dir = *file.report_dir;
    const std::string corpus = args->corpus_dir  ? *args->corpus_dir
                               : file.corpus_dir ? *file.corpus_dir
                               : args->mutant.empty() && args->rules_file.empty()
                                   ? default_corpus_dir
                                   : "";
    if (!args->no_corpus && !corpus.empty()) options.corpus_dir = corpus;
    const bool strict_health = args->strict_health || file.strict_health.value_or(false);
    options.stop_requested = clean_stop_flag(ctx);
    options.max_resident_bytes = ctx.max_memory_bytes;
    options.isolate = args->isolate;
    options.trial_timeout_seconds = args->trial_timeout;
    options.jobs = parse_jobs(args->jobs, args->isolate ? usable_cores() : 1);
    if (!args->isolate && options.jobs > 1)
      throw AdsemError(ErrorKind::usage,
                       fmt::format("--jobs {} needs worker processes; --no-isolate runs every "
                                   "trial in this process",
                                   *args->jobs));
    options.user_rules = load_rules(ctx.registry, args->calculi, args->rules_file);
    const auto formats = reports::parse_report_formats(args->formats);
    std::optional<reports::ReportFolderLock> folder; // held until the report is written
    if (!args->report_dir.empty()) {
      // A mistyped calculus, property or mutant must not cost the folder its earlier report.
      (void)props::select_properties(ctx.registry, options);
      folder.emplace(
          reports::claim_report_folder(args->report_dir, reports::campaign_report_file_names()));
      options.stream_dir = folder->dir();
    }
    ProgressPrinter progress(ctx.io.err, ctx.io.err_is_terminal);
    options.on_progress = [&progress](const props::ProgressEvent& e) { progress(e); };

    const reports::CampaignResult result = props::run_campaign(ctx.registry, options);
    if (!args->report_dir.empty()) reports::write_report(result, args->report_dir, formats);

    if (ctx.json)
      ctx.io.out << reports::dump_json(reports::to_json(result), 2) << "\n";
    else
      print_text_summary(ctx.io.out, result, ctx.registry);
    if (!args->report_dir.empty() && !ctx.json)
      ctx.io.out << fmt::format("\nreport written to {}/\n", args->report_dir);
    int health_warnings = 0;
    for (const auto& w : result.warnings)
      health_warnings += props::is_health_warning(w);
    for (const auto& p : result.properties)
      for (const auto& w : p.warnings)
        health_warnings += props::is_health_warning(w);
    if (strict_health && health_warnings > 0 && !ctx.json)
      ctx.io.out << fmt::format("\nhealth check failed: {} warning(s) under --strict-health\n",
                                health_warnings);
    ctx.exit_code = !result.complete                       ? 130
                    : !result.all_passed()                 ? 1
                    : strict_health && health_warnings > 0 ? 1
                                                           : 0;
  });
}

} // namespace adsem::cli
