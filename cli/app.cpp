#include "cli/app.hpp"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <string_view>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.hpp"
#include "cli/nearest_name.hpp"
#include "cli/process_guard.hpp"
#include "properties/core/memory.hpp"
#include "reports/schema_version.hpp"

namespace adsem::cli {

const props::CalculusEntry& calculus_named(const props::Registry& registry,
                                           const std::string& name) {
  if (const auto* entry = registry.find(name)) return *entry;
  std::string known;
  for (const auto& entry : registry.calculi())
    known += (known.empty() ? "" : ", ") + entry.id;
  throw AdsemError(ErrorKind::usage, fmt::format("unknown calculus '{}' (known: {})", name, known));
}

int report_error(const CommandContext& ctx, const Diagnostic& diagnostic) {
  if (ctx.json) {
    nlohmann::json error = {{"kind", std::string(to_string(diagnostic.kind))},
                            {"message", diagnostic.message}};
    if (diagnostic.pos) {
      error["line"] = diagnostic.pos->line;
      error["column"] = diagnostic.pos->column;
    }
    ctx.io.out << reports::dump_json(nlohmann::json{
                      {reports::schema_version_key, reports::schema_version}, {"error", error}})
               << "\n";
  } else {
    ctx.io.err << "adsem: " << diagnostic.render() << "\n";
  }
  return exit_code_of(diagnostic.kind);
}

namespace {

// A decimal real, as the calculi write them plus a sign: [+-]? DIGITS [. DIGITS] [e [+-] DIGITS]
// (also ".5" and "5."). std::stod also took "nan", "inf" and hexadecimal ("0x10" was 16).
bool is_decimal_real(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
      ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// A first word that names no command, as a usage error naming the nearest command.
Diagnostic unknown_command(const std::string& typed, const std::vector<std::string>& commands) {
  if (const auto near = nearest_name(typed, commands))
    return {
        ErrorKind::usage,
        fmt::format("unknown command '{}'; did you mean '{}'? (`adsem help` lists the commands)",
                    typed, *near),
        std::nullopt};
  return {ErrorKind::usage,
          fmt::format("unknown command '{}' (commands: {})", typed, fmt::join(commands, ", ")),
          std::nullopt};
}

} // namespace

const std::atomic<bool>* clean_stop_flag(const CommandContext& ctx) {
  if (ctx.io.guard) ctx.io.guard->accept_clean_stop();
  return ctx.io.stop_requested;
}

std::vector<double> parse_reals(const std::string& text, const std::string& option) {
  const auto bad = [&](const std::string& why) {
    return AdsemError(ErrorKind::usage,
                      fmt::format("{} expects comma-separated decimal reals such as 1.5,-2 (got "
                                  "'{}': {})",
                                  option, text, why));
  };
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const std::string_view piece = trimmed(std::string_view(text).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!is_decimal_real(piece))
      throw bad(fmt::format("'{}' is not a decimal real; nan and inf are not points", piece));
    // from_chars takes no '+' sign.
    const std::string_view digits = piece.front() == '+' ? piece.substr(1) : piece;
    double value = 0.0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::result_out_of_range)
      throw bad(fmt::format("'{}' is outside the range of a double", piece));
    if (ec != std::errc{} || end != digits.data() + digits.size())
      throw bad(fmt::format("'{}' is not a decimal real", piece));
    values.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

int run(const std::vector<std::string>& args, const props::Registry& registry, const Io& io) {
  CommandContext ctx{registry, io};
  if (!args.empty()) {
    const std::string& invoked = args.front();
    const std::string name = invoked.substr(invoked.find_last_of('/') + 1);
    if (!name.empty()) ctx.program = name;
  }
  CLI::App app{"adsem: property-based verification of differentiable-programming calculi.\n"
               "Each calculus has its syntax, type checker, operational semantics and AD\n"
               "mechanism as its paper defines them, and a numeric denotational model; random\n"
               "well-typed terms check that they agree.",
               "adsem"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("adsem ") + ADSEM_VERSION_STRING);
  app.footer("Exit codes: 0 ok / all properties held; 1 counterexample, type, evaluation, domain\n"
             "or fuel error; 2 usage, parse or I/O error; 3 internal error (a bug of adsem);\n"
             "4 resource error (over the memory ceiling); 130 interrupted (SIGINT/SIGTERM).\n"
             "Run `adsem help COMMAND` or `adsem COMMAND --help` for a command's options.");

  add_calculi_command(app, ctx);
  add_term_commands(app, ctx);
  add_campaign_command(app, ctx);
  add_cross_command(app, ctx);
  add_replay_command(app, ctx);
  add_mutants_command(app, ctx);
  add_merge_command(app, ctx);
  add_check_rule_command(app, ctx);
  add_complexity_command(app, ctx);
  add_throughput_command(app, ctx);
  add_enumerate_command(app, ctx);

  // Every command takes --max-memory; it is read once parsing is done, before the command runs.
  ctx.max_memory = std::to_string(props::default_max_memory_bytes >> 30) + "G";
  const std::string max_memory_help =
      "Resident-memory ceiling of the command, e.g. 512M or 8G (0 = none; default 4G): above it "
      "the command ends with a resource error (exit 4); a trial of an isolated campaign above it "
      "is killed and counted as a 'resource' discard";
  app.add_option("--max-memory", ctx.max_memory, max_memory_help);
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
    command->add_option("--max-memory", ctx.max_memory, max_memory_help);
  app.parse_complete_callback([&] {
    ctx.max_memory_bytes = props::parse_memory_size(ctx.max_memory, "--max-memory");
    if (io.guard) {
      io.guard->set_json(ctx.json);
      io.guard->set_memory_ceiling(ctx.max_memory_bytes);
    }
  });

  // `adsem help [COMMAND]`; a first word that names no command gets the nearest one.
  std::vector<std::string> commands;
  for (const CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
    commands.push_back(command->get_name());
  if (args.size() >= 2 && !args[1].starts_with('-')) {
    ctx.json = std::ranges::find(args, "--json") != args.end();
    if (args[1] == "help") {
      if (args.size() == 2) {
        io.out << app.help();
        return 0;
      }
      if (args.size() > 3)
        return report_error(
            ctx, {ErrorKind::usage, "`adsem help` takes one command name", std::nullopt});
      if (std::ranges::find(commands, args[2]) == commands.end())
        return report_error(ctx, unknown_command(args[2], commands));
      io.out << app.get_subcommand(args[2])->help(app.get_name());
      return 0;
    }
    if (std::ranges::find(commands, args[1]) == commands.end())
      return report_error(ctx, unknown_command(args[1], commands));
    ctx.json = false; // set again by --json as the command's options are parsed
  }

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  if (!reversed.empty()) reversed.pop_back(); // program name
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    io.out << app.help(); // CLI11 shows the help of the subcommand that was named, if any
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    io.out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    io.out << "adsem " << ADSEM_VERSION_STRING << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    return report_error(ctx, Diagnostic{ErrorKind::usage, e.what(), std::nullopt});
  } catch (const AdsemError& e) {
    return report_error(ctx, e.diagnostic());
  } catch (const std::bad_alloc&) {
    return report_error(ctx, Diagnostic{ErrorKind::resource, "out of memory", std::nullopt});
  } catch (const std::exception& e) {
    // Not the input's fault (that is an AdsemError) and no counterexample: a bug of adsem.
    return report_error(ctx, Diagnostic{ErrorKind::internal,
                                        std::string("internal error (a bug of adsem): ") + e.what(),
                                        std::nullopt});
  }
  return ctx.exit_code;
}

} // namespace adsem::cli
