// adsem enumerate CALC --max-size K: every well-typed term of the calculus's enumeration up to
// size K, smallest first, checked by the properties that take one given input
// (properties/core/enumeration.hpp, docs/enumeration.md). A command of its own rather than a
// campaign option: a campaign's trials, seeds, shards, corpus, shrinking and statistics are those
// of random trials, while here the inputs are fixed by the bound and the first counterexample is
// already a smallest one.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "generators/core/sized_enumeration.hpp"
#include "properties/core/enumeration.hpp"
#include "reports/schema_version.hpp"

namespace adsem::cli {

namespace {

long enumerate_discarded(const props::EnumerationRow& row) {
  long n = 0;
  for (const auto& [reason, k] : row.discards)
    n += k;
  return n;
}

std::string enumerate_discard_text(const props::EnumerationRow& row) {
  std::string out;
  for (const auto& [reason, n] : row.discards)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, reason);
  return out;
}

// The terms per size and up to it; with the points per term, the inputs (terms × points) too.
void enumerate_print_counts(std::ostream& out, const std::vector<std::uint64_t>& counts,
                            std::optional<int> points) {
  out << fmt::format("{:>5} {:>14} {:>14}{}\n", "size", "terms", "terms <= size",
                     points ? fmt::format(" {:>14}", "inputs <= size") : "");
  std::uint64_t total = 0;
  for (std::size_t n = 1; n < counts.size(); ++n) {
    total = gen::add_saturating(total, counts[n]);
    const std::uint64_t inputs =
        gen::mul_saturating(total, static_cast<std::uint64_t>(points.value_or(1)));
    out << fmt::format("{:>5} {:>14} {:>14}{}\n", n, counts[n], total,
                       points ? fmt::format(" {:>14}", inputs) : "");
  }
}

void enumerate_print_result(std::ostream& out, const props::EnumerationResult& r) {
  for (const props::EnumerationRow& row : r.rows) {
    const char* verdict = row.first          ? (row.first->error ? "ERROR" : "FAILED")
                          : row.checked == 0 ? "UNTESTED"
                                             : "held";
    out << fmt::format("{:<40} {:<17} {:>9} {:>9} {:>9}  {}\n", row.property, row.kind, row.checked,
                       row.passed, enumerate_discarded(row), verdict);
    if (!row.discards.empty()) out << "    discards: " << enumerate_discard_text(row) << "\n";
    if (row.first)
      out << fmt::format("    smallest counterexample (size {}): {}\n    {}\n", row.first->size,
                         row.first->input, row.first->reason);
  }
  out << fmt::format("sizes 1..{} {} in {:.1f} s{}\n", r.completed_size,
                     r.complete ? "checked exhaustively" : "checked", r.seconds,
                     r.complete ? ""
                     : r.stopped_by == "time"
                         ? fmt::format(" (time budget reached in size {})", r.completed_size + 1)
                         : fmt::format(" (interrupted in size {})", r.completed_size + 1));
}

nlohmann::json enumerate_result_json(const props::EnumerationResult& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const props::EnumerationRow& row : r.rows) {
    nlohmann::json j{{"property", row.property},
                     {"kind", row.kind},
                     {"checked", row.checked},
                     {"passed", row.passed},
                     {"failed", row.failed},
                     {"errors", row.errors},
                     {"discarded", enumerate_discarded(row)},
                     {"discards", row.discards}};
    if (row.first)
      j["counterexample"] = {{"size", row.first->size},
                             {"input", row.first->input},
                             {"reason", row.first->reason},
                             {"outcome", row.first->error ? "error" : "fail"}};
    rows.push_back(std::move(j));
  }
  return {{reports::schema_version_key, reports::schema_version},
          {"calculus", r.calculus},
          {"mutant", r.mutant},
          {"enumeration", r.description},
          {"max_size", r.max_size},
          {"terms_by_size", r.terms_by_size},
          {"points", r.points},
          {"completed_size", r.completed_size},
          {"complete", r.complete},
          {"stopped_by", r.stopped_by},
          {"seconds", r.seconds},
          {"properties", rows}};
}

} // namespace

void add_enumerate_command(CLI::App& app, CommandContext& ctx) {
  auto options = std::make_shared<props::EnumerationOptions>();
  auto counts_only = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand(
      "enumerate",
      "Bounded-exhaustive checking: every well-typed term of the calculus up to --max-size nodes,\n"
      "smallest first (its typing rules read as a grammar, with a few fixed literals and points:\n"
      "docs/enumeration.md), checked by each property that takes one given term. Prints the\n"
      "terms per size, then per property the inputs checked and discarded (with reasons; a\n"
      "discard is never a pass) and its smallest counterexample. Exit 0: every property held on\n"
      "every input it checked; 1: a counterexample, an error or a property that checked nothing;\n"
      "130: interrupted (the sizes finished so far are reported).");
  cmd->add_option("calculus", options->calculus,
                  "Calculus id or alias (simple-diff, delta-reverse, perturbative, "
                  "linear-negation, pullback)")
      ->required();
  cmd->add_option("--property,-p", options->properties,
                  "Only these properties (full names or <calc>/<suffix>); default: all that "
                  "take part");
  cmd->add_option("--max-size,-k", options->max_size, "Largest term size (nodes) to enumerate")
      ->required()
      ->check(CLI::Range(1, 40));
  cmd->add_option("--mutant,-m", options->mutant, "Run under this mutant (full name)");
  cmd->add_option("--time,-t", options->seconds,
                  "Wall-clock budget in seconds (default: none); reached, the sizes finished "
                  "are reported")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-inputs", options->max_inputs,
                  "Refuse a bound that gives more inputs (terms x points) than this (default "
                  "50000000)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--counts", *counts_only, "Only print the number of terms per size");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  cmd->callback([&ctx, options, counts_only] {
    if (*counts_only) {
      const auto counts =
          props::enumeration_counts(ctx.registry, options->calculus, options->max_size);
      if (ctx.json)
        ctx.io.out << reports::dump_json(
                          nlohmann::json{{reports::schema_version_key, reports::schema_version},
                                         {"calculus", options->calculus},
                                         {"terms_by_size", counts}},
                          2)
                   << "\n";
      else
        enumerate_print_counts(ctx.io.out, counts, std::nullopt);
      return;
    }
    options->stop_requested = clean_stop_flag(ctx);
    options->on_progress = [&ctx](int size, std::uint64_t done, std::uint64_t of) {
      if (done < of)
        ctx.io.err << fmt::format("enumerate: size {}: {} of {} terms\n", size, done, of)
                   << std::flush;
    };
    const props::EnumerationResult r = props::run_enumeration(ctx.registry, *options);
    if (ctx.json) {
      ctx.io.out << reports::dump_json(enumerate_result_json(r), 2) << "\n";
    } else {
      ctx.io.out << fmt::format("enumerate {} up to size {}{}\n", r.calculus, r.max_size,
                                r.mutant.empty() ? "" : " under mutant " + r.mutant);
      for (const std::string& line : r.description)
        ctx.io.out << "  " << line << "\n";
      enumerate_print_counts(ctx.io.out, r.terms_by_size, r.points);
      ctx.io.out << fmt::format("{:<40} {:<17} {:>9} {:>9} {:>9}  {}\n", "property", "kind",
                                "checked", "passed", "discarded", "result");
      enumerate_print_result(ctx.io.out, r);
    }
    bool bad = false;
    for (const props::EnumerationRow& row : r.rows)
      bad = bad || row.first || row.checked == 0;
    ctx.exit_code = r.stopped_by == "interrupted" ? 130 : bad ? 1 : 0;
  });
}

} // namespace adsem::cli
