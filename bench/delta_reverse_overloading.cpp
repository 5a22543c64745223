// delta-reverse's two implementations of Drev on the linear families of `adsem complexity
// delta-reverse` (properties/delta_reverse/complexity_families.cpp): R, the translation Drev{e}
// run by the machine (Fig. 11's wrapper, eval into a map), against R-overloading, e itself run
// on dual numbers with the tape (seed 001 §8 L629-641; semantics/delta_reverse/overloading.hpp),
// same wrapper and eval. CPU time per gradient; the ratio overloading / R is the finding.
//
//   build/bench/bench_delta_reverse_overloading [--benchmark_filter=rnn]
#include <benchmark/benchmark.h>

#include "properties/delta_reverse/complexity_families.hpp"
#include "properties/delta_reverse/frontend.hpp"

namespace {

using namespace adsem::delta_reverse;

constexpr long fuel = 2'000'000'000;

void gradient(benchmark::State& state, const std::string& family, bool overloading) {
  const int n = static_cast<int>(state.range(0));
  const Program p = real_program(parse_closed(family_source(family, n))).program;
  const Value s = point_of(p.s, family_point(family, n));
  for (auto _ : state) {
    const ReverseRun r =
        overloading ? reverse_overloaded(p, s, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, fuel)
                    : reverse(p, s, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, fuel);
    benchmark::DoNotOptimize(r.gradient);
  }
}

const int registered = [] {
  for (const char* family :
       {"sharing-chain", "wide-sum", "nested-closures", "rnn", "let-series", "long-range-let"})
    for (const bool overloading : {false, true})
      benchmark::RegisterBenchmark(
          (std::string(family) + (overloading ? "/R-overloading" : "/R")).c_str(),
          [family, overloading](benchmark::State& state) { gradient(state, family, overloading); })
          ->Arg(1000)
          ->Arg(10000)
          ->Unit(benchmark::kMillisecond);
  return 0;
}();

} // namespace

BENCHMARK_MAIN();
