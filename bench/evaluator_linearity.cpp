// Evaluators and reducers cost linear in the work (design.md "Engineering rules"): for
// every calculus, the primal evaluator and the AD mechanism the paper proves linear run the
// `adsem complexity` families (properties/<calc>/complexity_families.cpp) at n = 10 .. 10^5.
// Counters per run: `steps` (the calculus's own cost measure) and `ns_per_step`. At the end the
// log-log slopes over n are printed, per (calculus, mechanism, family, side):
//   steps_slope   ~1 when the step count is linear in n
//   time_slope    ~1 when the wall clock is linear in n; ~2 means a hidden substitution or copy
//                 cost per step (the steps are linear, each step costs O(n))
// A family stops growing once one run takes longer than --max_seconds_per_run (default 2 s).
//
//   build/dev/bench/bench_evaluator_linearity [--benchmark_filter=delta-reverse]
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "cli/builtin_registry.hpp"
#include "properties/core/complexity.hpp"

namespace {

using adsem::props::ComplexityFamily;

struct Point {
  double n = 0, steps = 0, seconds = 0;
};
std::map<std::string, std::vector<Point>>& results() {
  static std::map<std::string, std::vector<Point>> r;
  return r;
}
std::set<std::string>& too_slow() { // series whose last run exceeded the per-run budget
  static std::set<std::string> s;
  return s;
}
double max_seconds_per_run = 2.0;

void run_point(benchmark::State& state, const ComplexityFamily& f, bool derivative,
               const std::string& series) {
  const int n = static_cast<int>(state.range(0));
  if (too_slow().count(series)) {
    state.SkipWithError("the previous size exceeded the per-run time budget");
    for (auto _ : state) {
    }
    return;
  }
  std::function<double()> run;
  try {
    const adsem::props::ComplexityInstance in = f.make(n);
    run = derivative ? in.derivative : in.primal;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    for (auto _ : state) {
    }
    return;
  }
  double steps = 0, total = 0;
  long runs = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    try {
      steps = run();
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      too_slow().insert(series);
      break;
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total += s;
    ++runs;
    if (s > max_seconds_per_run) too_slow().insert(series);
  }
  if (runs == 0) return;
  state.counters["steps"] = steps;
  state.counters["ns_per_step"] = steps > 0 ? 1e9 * total / runs / steps : 0;
  results()[series].push_back({double(n), steps, total / runs});
}

void register_all() {
  const adsem::props::Registry registry = adsem::cli::builtin_registry();
  for (const auto& entry : registry.calculi()) {
    if (!entry.complexity_families) continue;
    for (const ComplexityFamily& f : entry.complexity_families()) {
      if (f.claim != adsem::props::ComplexityClaim::linear) continue;
      for (const bool derivative : {false, true}) {
        const std::string series =
            f.calculus + "/" + f.family + "/" + (derivative ? f.mechanism : std::string("primal"));
        auto* b = benchmark::RegisterBenchmark(
            series.c_str(),
            [f, derivative, series](benchmark::State& s) { run_point(s, f, derivative, series); });
        for (const int n : adsem::props::sizes_1_2_5(10, 100'000))
          b->Arg(n);
        b->Unit(benchmark::kMillisecond)->MinTime(0.05);
      }
    }
  }
}

void print_slopes() {
  std::printf("\n%-78s %6s %12s %12s %12s\n", "series (calculus/family/side)", "n max",
              "steps slope", "time slope", "ns/step max");
  for (const auto& [series, points] : results()) {
    std::vector<double> n, steps, seconds;
    double worst = 0;
    for (const Point& p : points) {
      n.push_back(p.n);
      steps.push_back(p.steps);
      seconds.push_back(p.seconds);
      if (p.steps > 0) worst = std::max(worst, 1e9 * p.seconds / p.steps);
    }
    // time at small n is dominated by fixed costs: fit the upper half, as the complexity tool does
    std::vector<int> ni(n.begin(), n.end());
    std::printf("%-78s %6.0f %12.3f %12.3f %12.1f\n", series.c_str(), n.empty() ? 0 : n.back(),
                adsem::props::tail_slope(ni, steps), adsem::props::tail_slope(ni, seconds), worst);
  }
}

} // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]).rfind("--max_seconds_per_run=", 0) == 0)
      max_seconds_per_run = std::stod(std::string(argv[i]).substr(22));
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  print_slopes();
  return 0;
}
