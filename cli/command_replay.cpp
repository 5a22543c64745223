// adsem replay: re-run counterexamples from a token or a report.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/rules_option.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/replay.hpp"
#include "properties/core/replay_token.hpp"
#include "reports/report_text.hpp"
#include "reports/schema_version.hpp"

namespace adsem::cli {
namespace {

void collect_tokens(const nlohmann::json& j, std::vector<std::string>& tokens) {
  if (j.is_object()) {
    if (const auto it = j.find("replay_token"); it != j.end() && it->is_string())
      tokens.push_back(it->get<std::string>());
    for (const auto& [key, value] : j.items())
      if (key != "replay_token") collect_tokens(value, tokens);
  } else if (j.is_array()) {
    for (const auto& value : j)
      collect_tokens(value, tokens);
  }
}

// Tokens recorded in a report: a folder (its results.jsonl, else summary.json), a JSON Lines
// file or a JSON file.
std::vector<std::string> tokens_from_report(const std::filesystem::path& path) {
  std::filesystem::path file = path;
  if (std::filesystem::is_directory(path)) {
    file = path / "results.jsonl";
    if (!std::filesystem::exists(file)) file = path / "summary.json";
  }
  std::ifstream in(file);
  if (!in) throw AdsemError(ErrorKind::io, fmt::format("cannot read {}", file.string()));
  std::vector<std::string> tokens;
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto whole = nlohmann::json::parse(content, nullptr, false);
  if (!whole.is_discarded()) {
    collect_tokens(whole, tokens);
    return tokens;
  }
  std::istringstream lines(content);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded())
      throw AdsemError(ErrorKind::parse,
                       fmt::format("{}: line {} is not JSON", file.string(), number),
                       SourcePos{number, 1});
    collect_tokens(j, tokens);
  }
  return tokens;
}

} // namespace

void add_replay_command(CLI::App& app, CommandContext& ctx) {
  auto target = std::make_shared<std::string>();
  auto rules_file = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "replay", "Re-run a counterexample from its replay token, or every counterexample of a\n"
                "report (a report folder, results.jsonl or summary.json). Exit 1 when a\n"
                "counterexample still fails, 0 when none does any more. A token recorded with\n"
                "--rules FILE replays only with --rules and the same file (its hash unchanged).");
  cmd->add_option("token-or-report", *target, "A replay token (adsem2.…) or a report path")
      ->required();
  add_rules_option(*cmd, *rules_file)
      ->description("The rule file the token was recorded with (`campaign --rules FILE`): "
                    "required for such a token and refused when its hash differs from the "
                    "recorded one; refused for a token without rules. See docs/rules.md");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  cmd->callback([&ctx, target, rules_file] {
    std::vector<std::string> tokens;
    std::error_code not_a_path; // e.g. a name longer than the system allows
    if (props::looks_like_replay_token(*target)) {
      tokens.push_back(*target);
    } else if (std::filesystem::exists(*target, not_a_path)) {
      tokens = tokens_from_report(*target);
      if (tokens.empty())
        ctx.io.err << fmt::format("adsem: {} records no counterexample\n", *target);
    } else {
      throw AdsemError(ErrorKind::usage,
                       fmt::format("'{}' is neither a replay token nor a report path", *target));
    }
    nlohmann::json results = nlohmann::json::array();
    bool any_reproduced = false;
    std::map<std::string, std::shared_ptr<const props::UserRules>> loaded; // by calculus
    for (const auto& text : tokens) {
      const auto token = props::decode_replay_token(text);
      // The token says whether it needs --rules before the file is compiled for its calculus.
      props::check_replay_rules(token, *rules_file);
      if (!token.rules.empty() && !loaded.contains(token.calculus))
        loaded[token.calculus] = load_rules(ctx.registry, token.calculus, *rules_file);
      const auto outcome = props::replay(ctx.registry, token, ctx.program,
                                         token.rules.empty() ? nullptr : loaded[token.calculus]);
      any_reproduced = any_reproduced || outcome.reproduced;
      if (ctx.json) {
        nlohmann::json j = {{"property", token.property},
                            {"reproduced", outcome.reproduced},
                            {"message", outcome.message}};
        if (outcome.record) j["counterexample"] = reports::to_json(*outcome.record);
        results.push_back(j);
      } else {
        ctx.io.out << outcome.message << "\n";
        if (outcome.record) ctx.io.out << reports::counterexample_text(*outcome.record);
      }
    }
    if (ctx.json)
      ctx.io.out << reports::dump_json({{reports::schema_version_key, reports::schema_version},
                                        {"replays", results}},
                                       2)
                 << "\n";
    ctx.exit_code = any_reproduced ? 1 : 0;
  });
}

} // namespace adsem::cli
