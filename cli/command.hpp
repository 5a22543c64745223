#pragma once
// Shared plumbing of the subcommands: each command file adds one CLI11 subcommand whose
// callback writes to io and sets the exit code.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "reports/campaign_result.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::cli {

struct CommandContext {
  const props::Registry& registry;
  const Io& io;
  bool json = false; // every command takes --json
  int exit_code = 0;
  std::string max_memory = {};      // every command takes --max-memory
  std::size_t max_memory_bytes = 0; // parsed from it before a command runs; 0 = none
  // How this executable was invoked (the file name of args[0]): the replay commands a report
  // prints name it, so that a tool built on cli::run (docs/kit.md) prints commands that run.
  std::string program = "adsem";
};

// The stop flag, for a command that polls it and then ends cleanly with exit 130 (campaigns,
// mutants, complexity, throughput). Taking it tells the process guard to let the command stop
// by itself on the first SIGINT/SIGTERM; every other command ends at once (exit 130).
const std::atomic<bool>* clean_stop_flag(const CommandContext& ctx);

void add_calculi_command(CLI::App& app, CommandContext& ctx);
void add_complexity_command(CLI::App& app, CommandContext& ctx);
void add_throughput_command(CLI::App& app, CommandContext& ctx);
void add_enumerate_command(CLI::App& app, CommandContext& ctx); // bounded-exhaustive checks
void add_campaign_command(CLI::App& app, CommandContext& ctx);
// A subcommand with every option of `campaign`; with fixed_calculus it runs that calculus only
// (no positional argument): `adsem cross` is `adsem campaign cross`.
void add_campaign_like_command(CLI::App& app, CommandContext& ctx, const std::string& name,
                               const std::string& description,
                               const std::optional<std::string>& fixed_calculus);
void add_cross_command(CLI::App& app, CommandContext& ctx);
void add_replay_command(CLI::App& app, CommandContext& ctx);
void add_merge_command(CLI::App& app, CommandContext& ctx);
void add_mutants_command(CLI::App& app, CommandContext& ctx);
void add_check_rule_command(CLI::App& app, CommandContext& ctx); // user rewrite rules
void add_term_commands(CLI::App& app, CommandContext& ctx);      // type eval reduce denote grad

// The calculus an argument names, or a usage error listing the known ids.
const props::CalculusEntry& calculus_named(const props::Registry& registry,
                                           const std::string& name);

// Prints an error as text (stderr) or as {"error": {...}} (stdout, with --json); returns its
// exit code.
int report_error(const CommandContext& ctx, const Diagnostic& diagnostic);

// Reals from "1.5,-2" (design.md: X is comma-separated reals).
std::vector<double> parse_reals(const std::string& text, const std::string& option);

} // namespace adsem::cli
