// simple-diff: the size of W.R_V(x:real. C) for the trace C of an n-factor product x * ... * x
// (seed 003 Fig. 6, lines 400-436; spec §4.5 "cost warning" and §9 P-1). The trace is a chain of
// n - 1 lets (S-ctx); Fig. 6's R-let differentiates each let body twice, so the literal rules
// grow like 2^n (about 25k nodes at 11 factors), while R-fast (the default, spec §9 P-1(b)) stays
// linear. Counters (one run):
//   input_nodes   |C| + |V| + |W|
//   nodes         |W.R_V(x. C)|
//   ratio         nodes / input_nodes (bounded for R-fast, doubling for Fig. 6)
//   rule_steps    rule applications of the symbolic differentiation (R-* or R-fast)
//   literal_over_linear (literal only) nodes of Fig. 6 / nodes of R-fast at the same n
//
//   build/dev/bench/bench_simple_diff_rd --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <string>

#include "semantics/simple_diff/run.hpp"

namespace {

using namespace adsem::simple_diff;

struct Product {
  Term trace;
  long input_nodes;
};

// The trace of x * x * ... * x (n factors) at x = 1.5, and |C| + |V| + |W|.
Product product_trace(int n) {
  std::string source = "x";
  for (int i = 1; i < n; ++i)
    source += " * x";
  const Term m = check_source(source, {{"x", real_type()}}).term;
  const Term c = symbolic_evaluate(m, {{"x", Value::real(1.5)}}).trace;
  return {c, term_size(*c) + 2};
}

TraceOutcome differentiate(const Product& p, DiffMode mode) {
  Options options;
  options.diff = mode;
  options.fuel = 100'000'000;
  return symbolic_derivative(value_term(Value::real(1)), value_term(Value::real(1.5)), "x",
                             real_type(), p.trace, options);
}

void run(benchmark::State& state, DiffMode mode) {
  const Product p = product_trace(static_cast<int>(state.range(0)));
  TraceOutcome out;
  for (auto _ : state) {
    out = differentiate(p, mode);
    benchmark::DoNotOptimize(out.trace);
  }
  const double nodes = static_cast<double>(term_size(*out.trace));
  state.counters["input_nodes"] = static_cast<double>(p.input_nodes);
  state.counters["nodes"] = nodes;
  state.counters["ratio"] = nodes / static_cast<double>(p.input_nodes);
  state.counters["rule_steps"] = static_cast<double>(out.steps);
  if (mode == DiffMode::literal)
    state.counters["literal_over_linear"] =
        nodes / static_cast<double>(term_size(*differentiate(p, DiffMode::linear).trace));
}

void BM_Fig6Literal(benchmark::State& state) {
  run(state, DiffMode::literal);
}
void BM_RFastLinear(benchmark::State& state) {
  run(state, DiffMode::linear);
}

BENCHMARK(BM_Fig6Literal)->DenseRange(2, 12, 1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RFastLinear)->DenseRange(2, 12, 1)->Arg(50)->Arg(200)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
