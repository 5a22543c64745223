// adsem complexity [CALC|all]: derivative cost / primal cost over growing program families, per
// AD mechanism, in each calculus's own cost measure and in CPU time (each side on its own, the
// minimum of --runs samples), with the derivative's peak resident memory
// (properties/core/complexity.hpp). --out DIR writes complexity.csv and one SVG plot per calculus;
// --jobs N measures N families at once, each in a worker process.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/jobs_option.hpp"
#include "properties/core/complexity.hpp"
#include "properties/core/worker_map.hpp"
#include "reports/schema_version.hpp"
#include "reports/text_file.hpp"

namespace adsem::cli {
namespace {

struct ComplexitySettings {
  std::vector<std::string> calculi;
  props::ComplexityOptions run;
  std::string family;              // only families with this name, when set
  std::string out_dir;             // CSV + SVG
  bool no_time = false;            // one run per point, no time ratio
  std::optional<std::string> jobs; // --jobs as typed (parse_jobs)
  bool weights = false;            // list the operation weights instead of measuring
};

nlohmann::json weights_json(const props::OperationWeights& weights) {
  nlohmann::json list = nlohmann::json::array();
  for (const props::OperationWeight& w : weights.entries)
    list.push_back({{"entry", w.entry}, {"weight", w.weight}, {"operation", w.operation}});
  return list;
}

props::OperationWeights weights_from_json(const nlohmann::json& list) {
  props::OperationWeights weights;
  for (const nlohmann::json& w : list)
    weights.entries.push_back({w.at("entry"), w.at("weight"), w.at("operation")});
  return weights;
}

// The cheap-gradient constant of a row, or null when the family does not measure it.
nlohmann::json omega_json(const props::ComplexityRow& r) {
  if (r.weights.empty()) return nullptr;
  return {{"mode", props::to_string(r.mode)},
          {"bound", r.omega_bound()},
          {"primal_ops", r.primal_ops},
          {"derivative_ops", r.derivative_ops},
          {"omega", r.omega},
          {"verdict", r.omega_verdict()},
          {"weights", weights_json(r.weights)}};
}

nlohmann::json to_json(const props::ComplexityRow& r) {
  return {{"calculus", r.calculus},
          {"mechanism", r.mechanism},
          {"family", r.family},
          {"control", r.control()},
          {"claim", props::to_string(r.claim)},
          {"measure", r.measure},
          {"citation", r.citation},
          {"n", r.n},
          {"primal_cost", r.primal_cost},
          {"derivative_cost", r.derivative_cost},
          {"ratio", r.ratio},
          {"slope", r.slope},
          {"slope_measured", r.slope_measured()},
          {"time_ratio", r.time_ratio},
          {"time_slope", r.time_slope},
          {"primal_seconds", r.primal_seconds},
          {"derivative_seconds", r.derivative_seconds},
          {"primal_time_growth", r.primal_time_growth},
          {"derivative_time_growth", r.derivative_time_growth},
          {"runs", r.runs},
          {"peak_mb", r.peak_mb},
          {"peak_growth", r.peak_growth},
          {"stopped", r.stopped},
          {"known_violation", r.known_violation},
          {"note", r.note},
          {"secondary", r.secondary_measure.empty()
                            ? nlohmann::json(nullptr)
                            : nlohmann::json{{"measure", r.secondary_measure},
                                             {"primal", r.primal_secondary},
                                             {"derivative", r.derivative_secondary},
                                             {"growth", r.secondary_growth}}},
          {"omega", omega_json(r)}};
}

// A row as a worker sends it back (to_json's fields, read back).
props::ComplexityRow row_from_json(const nlohmann::json& j) {
  props::ComplexityRow r;
  r.calculus = j.at("calculus");
  r.mechanism = j.at("mechanism");
  r.family = j.at("family");
  const std::string claim = j.at("claim");
  for (const auto c : {props::ComplexityClaim::linear, props::ComplexityClaim::finding,
                       props::ComplexityClaim::control})
    if (claim == props::to_string(c)) r.claim = c;
  r.measure = j.at("measure");
  r.citation = j.at("citation");
  r.n = j.at("n").get<std::vector<int>>();
  r.primal_cost = j.at("primal_cost").get<std::vector<double>>();
  r.derivative_cost = j.at("derivative_cost").get<std::vector<double>>();
  r.ratio = j.at("ratio").get<std::vector<double>>();
  r.slope = j.at("slope");
  r.time_ratio = j.at("time_ratio").get<std::vector<double>>();
  r.time_slope = j.at("time_slope");
  r.primal_seconds = j.at("primal_seconds").get<std::vector<double>>();
  r.derivative_seconds = j.at("derivative_seconds").get<std::vector<double>>();
  r.primal_time_growth = j.at("primal_time_growth");
  r.derivative_time_growth = j.at("derivative_time_growth");
  r.runs = j.at("runs");
  r.peak_mb = j.at("peak_mb").get<std::vector<double>>();
  r.peak_growth = j.at("peak_growth");
  r.stopped = j.at("stopped");
  r.known_violation = j.at("known_violation");
  r.note = j.at("note");
  if (const auto& s = j.at("secondary"); !s.is_null()) {
    r.secondary_measure = s.at("measure");
    r.primal_secondary = s.at("primal").get<std::vector<double>>();
    r.derivative_secondary = s.at("derivative").get<std::vector<double>>();
    r.secondary_growth = s.at("growth");
  }
  if (const auto& w = j.at("omega"); !w.is_null()) {
    r.mode = w.at("mode") == "forward" ? props::AdMode::forward : props::AdMode::reverse;
    r.weights = weights_from_json(w.at("weights"));
    r.primal_ops = w.at("primal_ops").get<std::vector<double>>();
    r.derivative_ops = w.at("derivative_ops").get<std::vector<double>>();
    r.omega = w.at("omega").get<std::vector<double>>();
  }
  return r;
}

std::string row_text(const props::ComplexityRow& r) {
  std::string out = fmt::format("{:<16} {:<42} {:<16} {:<8} ", r.calculus, r.mechanism, r.family,
                                r.known_violation ? "violated" : props::to_string(r.claim));
  if (r.n.empty())
    return out + "no sizes ran" + (r.stopped.empty() ? "" : " (" + r.stopped + ")") +
           (r.asserted() ? " [unmeasured: the claim is not checked]" : "") + "\n";
  out += fmt::format("n {}..{}  ratio {:.3g}..{:.3g}  slope {:+.3f}", r.n.front(), r.n.back(),
                     r.ratio.front(), r.ratio.back(), r.slope);
  if (!r.time_ratio.empty())
    out += fmt::format("  CPU ratio {:.3g}..{:.3g} (slope {:+.3f}; derivative {:.3g} s at n = {}; "
                       "CPU growth: primal n^{:.2f}, derivative n^{:.2f})",
                       r.time_ratio.front(), r.time_ratio.back(), r.time_slope,
                       r.derivative_seconds.back(), r.n.back(), r.primal_time_growth,
                       r.derivative_time_growth);
  if (!r.peak_mb.empty())
    out += fmt::format("  peak MB {:.3g}..{:.3g} (growth n^{:.2f})", r.peak_mb.front(),
                       r.peak_mb.back(), r.peak_growth);
  if (!r.derivative_secondary.empty())
    out += fmt::format("  {}: primal {:.3g}..{:.3g}, derivative {:.3g}..{:.3g} (growth n^{:.2f})",
                       r.secondary_measure, r.primal_secondary.front(), r.primal_secondary.back(),
                       r.derivative_secondary.front(), r.derivative_secondary.back(),
                       r.secondary_growth);
  if (!r.omega.empty())
    out +=
        fmt::format("  ω {:.3g}..{:.3g} [finding: {} the {} bound {:.3g}]", r.omega.front(),
                    r.omega.back(), r.omega_verdict(), props::to_string(r.mode), r.omega_bound());
  if (!r.stopped.empty()) out += "  [stopped: " + r.stopped + "]";
  if (r.asserted() && !r.slope_measured())
    out +=
        fmt::format("  [unmeasured: {} size{} ran, a slope needs {}: the claim is not checked]",
                    r.n.size(), r.n.size() == 1 ? "" : "s", props::ComplexityRow::sizes_for_slope);
  return out + "\n";
}

// The weighting of ω: each calculus's table once.
std::string weights_text(const std::vector<props::ComplexityFamily>& families) {
  std::string out =
      "Cheap-gradient constant ω = weighted primitive-operation firings of the\n"
      "derivative / of the primal (Griewank and Walther, Evaluating Derivatives,\n"
      "§4.5-4.6: forward ω <= 2.5, reverse ω <= 4). One arithmetic operation weighs 1\n"
      "(additions, multiplications and nonlinear primitives alike: one entry fires for\n"
      "every primitive); memory moves weigh 0 (the paper's step measure counts them);\n"
      "entries not listed weigh 0.\n";
  std::vector<std::string> seen;
  for (const props::ComplexityFamily& f : families) {
    if (f.weights.empty() || std::find(seen.begin(), seen.end(), f.calculus) != seen.end())
      continue;
    seen.push_back(f.calculus);
    out += fmt::format("\n{}\n", f.calculus);
    for (const props::OperationWeight& w : f.weights.entries)
      out += fmt::format("  {:<14} {:>3}  {}\n", w.entry, w.weight, w.operation);
  }
  return out;
}

void write_outputs(const std::string& dir, const std::vector<props::ComplexityRow>& rows) {
  std::filesystem::create_directories(dir);
  reports::write_file_atomically(std::filesystem::path(dir) / "complexity.csv",
                                 props::complexity_csv(rows));
  std::vector<std::string> calculi;
  for (const auto& r : rows)
    if (std::find(calculi.begin(), calculi.end(), r.calculus) == calculi.end())
      calculi.push_back(r.calculus);
  for (const auto& calc : calculi) {
    std::vector<props::ComplexityRow> mine;
    for (const auto& r : rows)
      if (r.calculus == calc) mine.push_back(r);
    reports::write_file_atomically(
        std::filesystem::path(dir) / fmt::format("complexity-{}.svg", calc),
        props::complexity_svg(calc + ": derivative cost / primal cost", mine));
  }
}

} // namespace

void add_complexity_command(CLI::App& app, CommandContext& ctx) {
  auto s = std::make_shared<ComplexitySettings>();
  // Enough for the linear families to reach n = 10,000 with the minimum of 5 runs per side; a
  // family whose next size is predicted to need more stops and says so.
  s->run.family_seconds = 60.0;
  auto* cmd = app.add_subcommand(
      "complexity",
      "The papers' complexity claims measured: for each AD mechanism, program families of\n"
      "growing size n (sharing chains, wide sums, nested closures, the RNN of BMP §6, long let\n"
      "series) report derivative cost / primal cost in the calculus's own cost measure and in\n"
      "CPU time (each side timed on its own in warm caches, the minimum of --runs samples,\n"
      "the two sides' samples alternating), with the log-log slope of the ratio over n (upper\n"
      "half of the sizes), the derivative's peak resident memory, and the cheap-gradient\n"
      "constant ω: weighted primitive-operation firings of derivative over primal, against\n"
      "Griewank-Walther's bound (forward 2.5, reverse 4; a finding, never asserted; --weights\n"
      "lists the weighting).\n"
      "Negative controls stop early at a cost cap; a family stops early at its time budget,\n"
      "a depth guard or the memory ceiling and says which. Exit 1 when a mechanism the paper\n"
      "proves linear shows a slope >= 0.05, or ran on fewer than 3 sizes (no slope: unmeasured).");
  cmd->add_option("calculi", s->calculi, "Calculus ids or aliases, or 'all' (default)");
  cmd->add_option("--max-n", s->run.max_n, "Largest family size n (default 10000)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--family-seconds", s->run.family_seconds,
                  "A family stops growing after this many seconds, or before a size predicted "
                  "to exceed them (default 60)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--runs", s->run.runs,
                  "Timed samples per side and size; the minimum CPU time is reported (default 5)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--family", s->family, "Only the families with this name (e.g. sharing-chain)");
  cmd->add_option("--out,--csv", s->out_dir,
                  "Write complexity.csv and complexity-<calculus>.svg into this directory");
  cmd->add_flag("--no-time", s->no_time, "One run per point and no CPU-time ratio (faster)");
  cmd->add_flag("--weights", s->weights,
                "List each calculus's primitive-operation entries and their weights (the "
                "weighting of ω) instead of measuring");
  add_jobs_option(*cmd, s->jobs,
                  "1: the CPU-time ratios are measured on a quiet core; N families are "
                  "measured at once, each in a worker process");
  cmd->add_flag("--json", ctx.json, "Machine-readable output");
  cmd->callback([&ctx, s] {
    const int jobs = parse_jobs(s->jobs, 1);
    std::vector<std::string> ids;
    if (s->calculi.empty() || (s->calculi.size() == 1 && s->calculi.front() == "all")) {
      for (const auto& e : ctx.registry.calculi())
        ids.push_back(e.id);
    } else {
      for (const auto& name : s->calculi)
        ids.push_back(calculus_named(ctx.registry, name).id);
    }
    props::ComplexityOptions run = s->run;
    run.time_it = !s->no_time;
    run.stop = clean_stop_flag(ctx);
    run.max_resident_bytes = ctx.max_memory_bytes;
    std::vector<props::ComplexityFamily> families;
    for (const auto& id : ids) {
      const props::CalculusEntry& entry = calculus_named(ctx.registry, id);
      if (!entry.complexity_families) continue;
      for (props::ComplexityFamily& f : entry.complexity_families())
        if (s->family.empty() || f.family == s->family) families.push_back(std::move(f));
    }
    if (s->weights) {
      ctx.io.out << weights_text(families);
      return;
    }
    std::vector<props::ComplexityRow> rows;
    const auto add = [&](props::ComplexityRow row) {
      rows.push_back(std::move(row));
      if (!ctx.json) ctx.io.out << row_text(rows.back()) << std::flush;
    };
    if (jobs == 1) {
      for (const props::ComplexityFamily& f : families) {
        if (ctx.io.stop_requested && ctx.io.stop_requested->load()) break;
        add(props::run_complexity_family(f, run));
      }
    } else {
      props::map_in_workers(
          families.size(), jobs,
          [&](std::size_t i) {
            return reports::dump_json(to_json(props::run_complexity_family(families[i], run)));
          },
          [&](std::size_t i, std::optional<std::string> line) {
            if (line) return add(row_from_json(nlohmann::json::parse(*line)));
            props::ComplexityRow lost;
            lost.calculus = families[i].calculus;
            lost.mechanism = families[i].mechanism;
            lost.family = families[i].family;
            lost.claim = families[i].claim;
            lost.stopped = "its worker process died";
            add(std::move(lost));
          },
          run.stop, ctx.max_memory_bytes);
    }
    if (!s->out_dir.empty()) write_outputs(s->out_dir, rows);
    const bool held =
        std::all_of(rows.begin(), rows.end(), [](const auto& r) { return r.holds(); });
    if (ctx.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& r : rows)
        list.push_back(to_json(r));
      ctx.io.out << reports::dump_json(
                        nlohmann::json{{reports::schema_version_key, reports::schema_version},
                                       {"rows", list}},
                        2)
                 << "\n";
    } else if (!s->out_dir.empty()) {
      ctx.io.out << "wrote " << s->out_dir << "/complexity.csv and the SVG plots\n";
    }
    const bool interrupted = ctx.io.stop_requested && ctx.io.stop_requested->load();
    ctx.exit_code = interrupted ? 130 : held ? 0 : 1;
  });
}

} // namespace adsem::cli
