// The cost claim of seed 004 (L32, L353: pushing forward is conjectured to cost a constant factor
// over the primal) against the rules as printed (Fig. 4, L211-218), measured on three families
// whose application nesting grows (spec §9.6):
//   chain    f (f (… (f x)))            k applications along the argument      (f : R → R)
//   product  f1 x * (f2 x * (… fn x))   n factors                              (fi : R → R)
//   curried  g x x … x                  k arguments, operator nesting           (g : R → … → R)
// For each size the counters give, in ONE run:
//   source        tree size of M
//   tx_tree       tree size of T_x M (every occurrence counted)
//   tx_dag        distinct nodes of T_x M as built (the sharing T_x already has)
//   tx_hashcons   distinct nodes of T_x M up to structure (a hash-consing table)
//   tx_bound      the tree size Fig. 4 with the sugar implies (semantics/perturbative/tx_cost.hpp)
//   *_over_source ratios to the source size; tx_tree_growth = tx_tree(k) / tx_tree(k-1)
//   steps_primal  rule steps normalising the closed primal program  (λx.M) a
//   steps_T       rule steps normalising D = π1 (T (λx.M) (1, a))
//   steps_ratio   steps_T / steps_primal; time_ratio the same for wall-clock
// The timed loop normalises D. Closed instances substitute sin/cos/exp/tanh for the free
// functions (and λa1…λak. a1 * … * ak for g).
#include <benchmark/benchmark.h>

#include <chrono>
#include <functional>
#include <string>

#include "properties/perturbative/frontend.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "semantics/perturbative/transform.hpp"
#include "semantics/perturbative/tx_cost.hpp"
#include "syntax/perturbative/sharing.hpp"

namespace adsem::perturbative {
namespace {

const Type R = real_type();
Type r_to_r() {
  return arrow_type(R, R);
}
Type curried_type(int k) {
  Type t = R;
  for (int i = 0; i < k; ++i)
    t = arrow_type(R, t);
  return t;
}

const char* const unary[] = {"sin", "cos", "exp", "tanh"};

// ---- the open terms (free function variables; x : R is differentiated) ----
Term chain_open(int k) {
  Term m = var("x", R);
  for (int i = 0; i < k; ++i)
    m = app(var("f", r_to_r()), m);
  return m;
}
Term product_open(int n) {
  const auto factor = [](int i) {
    return app(var("f" + std::to_string(i), r_to_r()), var("x", R));
  };
  Term m = factor(n);
  for (int i = n - 1; i >= 1; --i)
    m = app(primitive("mul", arrow_type(product_type(R, R), R)), pair(factor(i), m));
  return m;
}
Term curried_open(int k) {
  Term m = var("g", curried_type(k));
  for (int i = 0; i < k; ++i)
    m = app(m, var("x", R));
  return m;
}

// ---- the closed programs, as source text (body of λx:R.) ----
std::string chain_body(int k) {
  std::string s = "x";
  for (int i = 0; i < k; ++i)
    s = std::string("sin (") + s + ")";
  return s;
}
std::string product_body(int n) {
  std::string s = std::string(unary[(n - 1) % 4]) + " x";
  for (int i = n - 1; i >= 1; --i)
    s = std::string(unary[(i - 1) % 4]) + " x * (" + s + ")";
  return s;
}
std::string curried_body(int k) {
  std::string g = "(";
  for (int i = 1; i <= k; ++i)
    g += "\\a" + std::to_string(i) + ":R. ";
  for (int i = 1; i <= k; ++i)
    g += (i > 1 ? " * a" : "a") + std::to_string(i);
  g += ")";
  for (int i = 0; i < k; ++i)
    g += " x";
  return g;
}

struct Family {
  std::function<Term(int)> open;
  std::function<std::string(int)> body;
};

RunOptions options() {
  RunOptions o;
  o.fuel = 5'000'000;
  return o;
}

double seconds(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void run_family(benchmark::State& state, const Family& family) {
  const int k = static_cast<int>(state.range(0));
  const Rules& rules = *paper_rules();
  constexpr long cap = 1L << 60;
  const Term m = family.open(k);
  const Term tx = transform(rules, "x", R, m);
  const long tree = tree_size(tx, cap);
  const long previous = k > 1 ? tree_size(transform(rules, "x", R, family.open(k - 1)), cap) : 0;
  const double source = static_cast<double>(size_of(m));

  const Term primal = parse_closed("(\\x:R. " + family.body(k) + ") 0.5");
  const Term derivative = parse_closed("pi1 (T (\\x:R. " + family.body(k) + ") (1, 0.5))");
  Run primal_run, derivative_run;
  const double primal_time = seconds([&] { primal_run = normalise(primal, rules, options()); });
  const double derivative_time =
      seconds([&] { derivative_run = normalise(derivative, rules, options()); });

  for (auto _ : state) {
    Run run = normalise(derivative, rules, options());
    benchmark::DoNotOptimize(run.result);
  }

  state.counters["source"] = source;
  state.counters["tx_tree"] = static_cast<double>(tree);
  state.counters["tx_dag"] = static_cast<double>(dag_size(tx));
  state.counters["tx_hashcons"] = static_cast<double>(hashconsed_size(tx));
  state.counters["tx_bound"] = tx_size_bound("x", m).tree_size;
  state.counters["tx_summands"] = static_cast<double>(tx.items.size());
  state.counters["tree_over_source"] = static_cast<double>(tree) / source;
  state.counters["dag_over_source"] = static_cast<double>(dag_size(tx)) / source;
  state.counters["hashcons_over_source"] = static_cast<double>(hashconsed_size(tx)) / source;
  if (previous > 0)
    state.counters["tx_tree_growth"] = static_cast<double>(tree) / static_cast<double>(previous);
  state.counters["steps_primal"] = static_cast<double>(primal_run.steps);
  state.counters["steps_T"] = static_cast<double>(derivative_run.steps);
  state.counters["steps_ratio"] =
      static_cast<double>(derivative_run.steps) / static_cast<double>(primal_run.steps);
  state.counters["nf_tree"] = static_cast<double>(size_of(derivative_run.result));
  state.counters["time_ratio"] = derivative_time / primal_time;
}

void BM_chain(benchmark::State& state) {
  run_family(state, {chain_open, chain_body});
}
void BM_product(benchmark::State& state) {
  run_family(state, {product_open, product_body});
}
void BM_curried(benchmark::State& state) {
  run_family(state, {curried_open, curried_body});
}

BENCHMARK(BM_chain)->DenseRange(1, 8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_product)->DenseRange(1, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_curried)->DenseRange(1, 6)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace adsem::perturbative

BENCHMARK_MAIN();
