// The per-term commands: type, eval, reduce, denote, grad (design.md "The CLI contract").
#include <fstream>
#include <istream>
#include <optional>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/rules_option.hpp"
#include "properties/core/result_checks.hpp"
#include "reports/schema_version.hpp"
#include "syntax/core/lexer.hpp"

namespace adsem::cli {
namespace {

struct TermArgs {
  std::string calculus;
  std::string expression; // -e TERM
  std::string file;       // FILE
  bool trace = false;
  std::string at;
  std::string mechanism;
  std::string mutant;
  std::string rules_file; // --rules FILE
  long fuel = props::EvalOptions{}.fuel;
};

// One byte past the parsers' limit is enough for the lexer to refuse the text, located; reading
// all of a huge file would cost its whole size in memory first.
std::string read_bounded(std::istream& in, const std::string& name) {
  std::string text(max_source_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw AdsemError(ErrorKind::io, fmt::format("cannot read {}", name));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

// The term: -e TERM, FILE, or standard input when FILE is `-`.
std::string read_source(const CommandContext& ctx, const TermArgs& args) {
  if (!args.expression.empty() && !args.file.empty())
    throw AdsemError(ErrorKind::usage, "give either -e TERM or FILE, not both");
  if (!args.expression.empty()) return args.expression;
  if (args.file.empty())
    throw AdsemError(ErrorKind::usage, "give a term: -e TERM, FILE, or - for standard input");
  if (args.file == "-") {
    if (!ctx.io.in) throw AdsemError(ErrorKind::usage, "no standard input to read the term from");
    return read_bounded(*ctx.io.in, "standard input");
  }
  std::ifstream in(args.file, std::ios::binary);
  if (!in) throw AdsemError(ErrorKind::io, fmt::format("cannot read {}", args.file));
  return read_bounded(in, args.file);
}

const props::Frontend& frontend_of(const CommandContext& ctx, const std::string& calculus) {
  const auto& entry = calculus_named(ctx.registry, calculus);
  if (!entry.frontend)
    throw AdsemError(ErrorKind::usage,
                     fmt::format("calculus '{}' has no terms to type or evaluate", entry.id));
  return *entry.frontend;
}

props::EvalOptions eval_options(const CommandContext& ctx, const TermArgs& args, bool trace) {
  props::EvalOptions options;
  options.fuel = args.fuel;
  options.trace = trace || args.trace;
  options.mutant = args.mutant;
  options.user_rules = load_rules(ctx.registry, args.calculus, args.rules_file);
  return options;
}

void print_json(const CommandContext& ctx, const nlohmann::json& j) {
  ctx.io.out << reports::dump_json(j, 2) << "\n";
}

std::string join_reals(const std::vector<double>& values) {
  std::string out;
  for (const double v : values)
    out += (out.empty() ? "" : ", ") + fmt::format("{}", v);
  return out;
}

// Every real an answer prints must be finite (properties/core/result_checks.hpp): "the value",
// or "real 2 of the value" when there are several.
void require_finite(const std::vector<double>& xs, const std::string& what) {
  props::require_finite(xs, [&](std::size_t i) {
    return xs.size() == 1 ? what : fmt::format("real {} of {}", i + 1, what);
  });
}

// The options every term command has: the calculus, the term, --json.
CLI::App* add_term_subcommand(CLI::App& app, CommandContext& ctx, TermArgs& args,
                              const std::string& name, const std::string& description) {
  auto* cmd = app.add_subcommand(name, description);
  cmd->add_option("calculus", args.calculus, "Calculus id or alias")->required();
  cmd->add_option("file", args.file, "File holding the term (- reads standard input)");
  cmd->add_option("-e,--expr", args.expression, "The term itself");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  return cmd;
}

// The options of the commands that run the rules (eval, reduce, grad).
void add_evaluation_options(CLI::App& cmd, TermArgs& args) {
  cmd.add_option("--fuel", args.fuel, "Step budget (running out is a fuel error)")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--mutant,-m", args.mutant, "Evaluate with a named mutant's rules");
  add_rules_option(cmd, args.rules_file)
      ->description("Evaluate with the rules of FILE joined to the calculus's (added, replacing "
                    "or removing paper rules; after a mutant's patch); --trace names them. See "
                    "docs/rules.md, \"Rules that join the semantics (--rules)\"");
}

// The answer's fields every term command shares (docs/campaigns.md "JSON schemas"): "printed",
// the answer in surface syntax, and "reals", its reals flattened (when it is ground).
nlohmann::json answer_json(const std::string& printed,
                           const std::optional<std::vector<double>>& reals) {
  nlohmann::json j = {{reports::schema_version_key, reports::schema_version}, {"printed", printed}};
  if (reals) j["reals"] = *reals;
  return j;
}

void eval_command(const CommandContext& ctx, const TermArgs& args, bool reduce) {
  const auto& frontend = frontend_of(ctx, args.calculus);
  const auto source = read_source(ctx, args);
  const auto options = eval_options(ctx, args, reduce);
  const auto result = reduce ? frontend.reduce(source, options) : frontend.eval(source, options);
  if (result.reals) require_finite(*result.reals, "the value");
  if (ctx.json) {
    nlohmann::json j = answer_json(result.value, result.reals);
    j["value"] = result.value;
    j["steps"] = result.steps;
    if (options.trace) j["trace"] = result.trace;
    print_json(ctx, j);
    return;
  }
  if (options.trace)
    for (const auto& step : result.trace)
      ctx.io.out << step << "\n";
  ctx.io.out << result.value << "\n";
}

} // namespace

void add_term_commands(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<TermArgs>();

  add_term_subcommand(app, ctx, *args, "type", "Print the type of a term, or a located error")
      ->callback([&ctx, args] {
        const auto type = frontend_of(ctx, args->calculus).type_of(read_source(ctx, *args));
        if (ctx.json)
          print_json(ctx, {{reports::schema_version_key, reports::schema_version}, {"type", type}});
        else
          ctx.io.out << type << "\n";
      });

  auto* eval = add_term_subcommand(app, ctx, *args, "eval",
                                   "Evaluate a term with the calculus's operational semantics");
  add_evaluation_options(*eval, *args);
  eval->add_flag("--trace", args->trace, "Print each rule applied");
  eval->callback([&ctx, args] { eval_command(ctx, *args, false); });

  auto* reduce = add_term_subcommand(app, ctx, *args, "reduce",
                                     "Run the rules step by step, naming each rule");
  // The CLI contract spells it `reduce ... --trace`; reduce always traces.
  add_evaluation_options(*reduce, *args);
  reduce->add_flag("--trace", args->trace, "Print each rule applied (always on for reduce)");
  reduce->callback([&ctx, args] { eval_command(ctx, *args, true); });

  auto* denote = add_term_subcommand(
      app, ctx, *args, "denote",
      "The term's value in the numeric denotational model; with --at X, a closed term of a\n"
      "function type from reals to reals is applied at X and its Jacobian printed");
  denote->add_option("--at", args->at, "Point, comma-separated reals: 1.5,-2");
  denote->callback([&ctx, args] {
    std::optional<std::vector<double>> at;
    if (!args->at.empty()) at = parse_reals(args->at, "--at");
    const auto result = frontend_of(ctx, args->calculus).denote(read_source(ctx, *args), at);
    require_finite(result.value, "the value");
    for (std::size_t r = 0; r < result.jacobian.size(); ++r)
      require_finite(result.jacobian[r], fmt::format("row {} of the Jacobian", r + 1));
    if (ctx.json) {
      nlohmann::json j = answer_json(result.printed, result.value);
      j["value"] = result.value;
      if (at) j["jacobian"] = result.jacobian;
      print_json(ctx, j);
      return;
    }
    ctx.io.out << result.printed << "\n";
    if (at) {
      ctx.io.out << "jacobian at (" << join_reals(*at) << "):\n";
      for (const auto& row : result.jacobian)
        ctx.io.out << "  [" << join_reals(row) << "]\n";
    }
  });

  auto* grad = add_term_subcommand(
      app, ctx, *args, "grad",
      "Gradient at --at X of a closed term of a function type from reals to a real, by the\n"
      "calculus's own AD mechanism (--mechanism picks another where there are several)");
  grad->add_option("--at", args->at, "Point, comma-separated reals: 1.5,-2")->required();
  grad->add_option("--mechanism", args->mechanism, "AD mechanism (default: the paper's final one)");
  add_evaluation_options(*grad, *args);
  grad->callback([&ctx, args] {
    const auto& frontend = frontend_of(ctx, args->calculus);
    const auto at = parse_reals(args->at, "--at");
    const auto result = frontend.grad(read_source(ctx, *args), at, args->mechanism,
                                      eval_options(ctx, *args, false));
    props::require_finite("the value", result.value);
    require_finite(result.gradient, "the gradient");
    if (ctx.json) {
      nlohmann::json j =
          answer_json(fmt::format("{}", result.value), std::vector<double>{result.value});
      j["value"] = result.value;
      j["gradient"] = result.gradient;
      j["mechanism"] = result.mechanism;
      print_json(ctx, j);
      return;
    }
    ctx.io.out << fmt::format("value:    {}\ngradient: [{}]\n(mechanism: {})\n", result.value,
                              join_reals(result.gradient), result.mechanism);
  });
}

} // namespace adsem::cli
