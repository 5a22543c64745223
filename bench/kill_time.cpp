// Time to kill every built-in mutant: the goal is every mutant killed, median time to
// kill under 1 s and max under 30 s on one core. (For scale: in the Redex benchmark the best
// generator found 38 of 43 bugs, 15 of them within 1 s.)
//
// Each mutant runs in the kill matrix's "killers" mode (properties/core/kill_matrix.hpp): its
// declared killers one after the other, each with the whole budget (default 30 s) cut to the
// fastest kill so far, in-process (no isolation fork), single-threaded. A mutant's time to kill
// is the wall-clock seconds its fastest killing property needed, run alone, from its first trial
// to its shrunk counterexample. Counters (one run):
//   mutants, killed, expected_survivors   counts (paper-literal survivors are documented)
//   median_s, max_s                       time to kill over the killed mutants
//   goal_met                              1 when all are killed, median < 1 s and max < 30 s
// Per-mutant lines go to stderr.
//
//   build/dev/bench/bench_kill_time [--time S] [--seed N] [--matrix] [benchmark flags]
//
// --matrix runs every property of each calculus instead (the budget split over them): slower,
// and the median/max then come from the fastest property within its share.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/builtin_registry.hpp"
#include "properties/core/kill_matrix.hpp"

namespace {

adsem::props::KillMatrixOptions bench_options{};

void KillTime(benchmark::State& state) {
  const adsem::props::Registry registry = adsem::cli::builtin_registry();
  adsem::reports::KillMatrix matrix;
  for (auto _ : state) {
    auto options = bench_options;
    options.on_mutant_done = [](const adsem::reports::MutantKills& m) {
      const auto* kill = m.fastest_kill();
      std::cerr << fmt::format("{:<58} {}\n", m.name,
                               kill ? fmt::format("killed in {:8.3f} s, {:5} trials, by {}",
                                                  kill->seconds, kill->trials, kill->property)
                               : m.expected_survivor() ? "survived (paper-literal, expected)"
                                                       : "SURVIVED");
    };
    matrix = adsem::props::run_kill_matrix(registry, options);
  }
  const auto s = matrix.summary();
  state.counters["mutants"] = s.mutants;
  state.counters["killed"] = s.killed;
  state.counters["expected_survivors"] = s.expected_survivors;
  state.counters["median_s"] = s.median_seconds_to_kill.value_or(-1);
  state.counters["max_s"] = s.max_seconds_to_kill.value_or(-1);
  state.counters["goal_met"] = s.all_killed() && s.median_seconds_to_kill &&
                               *s.median_seconds_to_kill < 1.0 && *s.max_seconds_to_kill < 30.0;
  std::cerr << fmt::format(
      "{} of {} killed ({} paper-literal expected survivors); median {:.3f} s, max {:.3f} s "
      "({})\n",
      s.killed, s.mutants, s.expected_survivors, s.median_seconds_to_kill.value_or(-1),
      s.max_seconds_to_kill.value_or(-1), s.slowest);
}

BENCHMARK(KillTime)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

} // namespace

int main(int argc, char** argv) {
  bench_options.seconds_per_mutant = 30;
  bench_options.seed = 1;
  bench_options.killers_only = true;
  std::vector<char*> rest = {argv[0]}; // what Google Benchmark gets
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--time" && i + 1 < argc)
      bench_options.seconds_per_mutant = std::atof(argv[++i]);
    else if (arg == "--seed" && i + 1 < argc)
      bench_options.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--matrix")
      bench_options.killers_only = false;
    else
      rest.push_back(argv[i]);
  }
  int rest_count = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_count, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
