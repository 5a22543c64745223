// Abadi–Plotkin's rd (seed 003 Section 3-4, Fig. 6 lines 400-436): the gradient 1.rd_V(x. N)
// symbolically evaluates N to a trace C, differentiates C (W.R_V(x. C)) and evaluates the result.
// Fig. 6's R-let handles a let body twice, so the literal rules are exponential in the number of
// lets (spec §4.5 "cost warning"): the curve is the finding. R-fast (spec §9 P-1(b), the
// default) is the linear reading the spec proposes; the paper proves no cost bound, so its rows
// are asserted linear as the spec's claim, not the paper's. The cost measure is the machine's
// rule steps (semantics/simple_diff/machine.hpp); the primal is the evaluation of N at V.
#include "properties/simple_diff/complexity_families.hpp"

#include <fmt/format.h>

#include "properties/simple_diff/operation_weights.hpp"
#include "semantics/simple_diff/run.hpp"

namespace adsem::simple_diff {

namespace {

using props::ComplexityClaim;
using props::ComplexityFamily;
using props::ComplexityInstance;

std::string sharing_chain(int n) {
  std::string s = "let x1:real = x * x in ";
  for (int i = 1; i < n; ++i)
    s += fmt::format("let x{}:real = x{} * x{} in ", i + 1, i, i);
  return s + fmt::format("x{}", n);
}
std::string wide_sum(int n) {
  static const char* const f[] = {"sin", "cos", "tanh", "exp"};
  std::string s = "sin(x)";
  for (int i = 1; i < n; ++i)
    s += fmt::format(" + {}(x)", f[i % 4]);
  return s;
}
// letrec g_k(y) = g_{k-1}(y) * 0.9 + y: n first-order functions, each calling the previous
std::string nested_closures(int n) {
  std::string s = "letrec g0(y:real):real = sin(y) in ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("letrec g{}(y:real):real = g{}(y) * 0.9 + y in ", i, i - 1);
  return s + fmt::format("g{}(x)", n);
}
// h_{k+1} = tanh(x h_k + c_k) with the weight x and h_0 = 0.5 (BMP §6's RNN shape)
std::string rnn(int n) {
  std::string s = "let h0:real = 0.5 in ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let h{}:real = tanh(x * h{} + {}) in ", i, i - 1, 0.01 * (i % 17 + 1));
  return s + fmt::format("h{}", n);
}
std::string let_series(int n) {
  std::string s = "let x1:real = sin(x) in ";
  for (int i = 1; i < n; ++i)
    s += fmt::format("let x{}:real = {}(x{}) in ", i + 1, i % 2 == 1 ? "tanh" : "sin", i);
  return s + fmt::format("x{}", n);
}
// a_k = sin(a_{k-1}) + x: every stage reads the previous one and the outer input x
std::string long_range_let(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let a{}:real = sin({}) + x in ", i, i == 1 ? "x" : fmt::format("a{}", i - 1));
  return s + fmt::format("a{}", n);
}

ComplexityFamily family(const std::string& name, std::string (*source)(int), DiffMode mode,
                        std::vector<int> sizes) {
  ComplexityFamily f;
  f.calculus = "simple-diff";
  f.family = name;
  f.mechanism =
      mode == DiffMode::linear ? "rd with R-fast (spec §9 P-1(b))" : "rd with Fig. 6 literally";
  f.measure = "machine rule steps";
  f.claim = mode == DiffMode::linear ? ComplexityClaim::linear : ComplexityClaim::finding;
  f.citation = "seed 003 Fig. 6, lines 400-436; spec §4.5, §9 P-1";
  f.sizes = std::move(sizes);
  f.weights = operation_weights();
  f.make = [name, source, mode, weights = f.weights](int n) {
    const double at = name == "sharing-chain" ? 1.0 : 0.3;
    const Term body = check_source(source(n), {{"x", real_type()}}).term;
    Options o;
    o.fuel = 2'000'000'000;
    o.diff = mode;
    // the machine counts its firings by position in its book and adds them to the counter when
    // it ends: no per-step cost
    const auto counted = [o, weights](const auto& run) {
      RuleCounter firings;
      Options counting = o;
      counting.counter = &firings;
      const double steps = static_cast<double>(run(counting).steps);
      return props::CostAndOperations{steps, weights.weigh(firings.fired)};
    };
    return props::counted_instance(
        [body, at, counted] {
          return counted([&](const Options& c) {
            return evaluate(body, c, {{"x", Value::real(at)}});
          });
        },
        [body, at, counted] {
          return counted(
              [&](const Options& c) { return gradient("x", real_type(), body, {at}, c); });
        });
  };
  return f;
}

} // namespace

std::vector<props::ComplexityFamily> complexity_families() {
  const std::vector<int> sizes = props::sizes_1_2_5(10, 10'000);
  const std::vector<int> literal = {2, 4, 6, 8, 10, 12, 14, 16, 18, 20};
  return {
      family("sharing-chain", sharing_chain, DiffMode::linear, sizes),
      family("wide-sum", wide_sum, DiffMode::linear, sizes),
      family("nested-closures", nested_closures, DiffMode::linear, sizes),
      family("rnn", rnn, DiffMode::linear, sizes),
      family("let-series", let_series, DiffMode::linear, sizes),
      family("long-range-let", long_range_let, DiffMode::linear, sizes),
      family("sharing-chain", sharing_chain, DiffMode::literal, literal),
      family("let-series", let_series, DiffMode::literal, literal),
      family("long-range-let", long_range_let, DiffMode::literal, literal),
  };
}

} // namespace adsem::simple_diff
