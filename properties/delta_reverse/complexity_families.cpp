// Krawiec et al.'s efficiency claim (seed 001 §7.4, L599-621; spec §6 P17): the reverse derivative
// R (Drev, runDelta and eval, Fig. 11) costs O(primal steps); its negative controls (P18): reverse
// #2 (Fig. 8, unshared Delta2 trees) is exponential on sharing, reverse #1 (Fig. 6, dense δS
// vectors) quadratic on wide inputs (L342, L350-356, L405-422). The cost measure is the machine's
// rule steps (spec §4.8 cost model: one step per rule instance and per primitive application);
// R counts the Drev run and the eval sweep, R1 adds its dense scalar operations.
#include "properties/delta_reverse/complexity_families.hpp"

#include <memory>

#include <fmt/format.h>

#include "properties/delta_reverse/cost_properties.hpp"
#include "properties/delta_reverse/frontend.hpp"
#include "properties/delta_reverse/operation_weights.hpp"

namespace adsem::delta_reverse {

namespace {

using props::ComplexityClaim;
using props::ComplexityFamily;
using props::ComplexityInstance;

constexpr long family_fuel = 2'000'000'000;

// x_{k+1} = x_k * x_k at x = 1 (the values stay finite at any n)
std::string sharing_chain(int n) {
  std::string s = "\\(x : Real). let x1 = x * x in ";
  for (int i = 1; i < n; ++i)
    s += fmt::format("let x{} = x{} * x{} in ", i + 1, i, i);
  return s + fmt::format("x{}", n);
}
// g_k = λy. (apply g_{k-1} y) * 0.9 + y: n closures, each passed to the higher-order `apply`
std::string nested_closures(int n) {
  std::string s = "let apply = \\(f : Real -> Real). \\(y : Real). f y in "
                  "let g0 = \\(y : Real). sin y in ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let g{} = \\(y : Real). apply g{} y * 0.9 + y in ", i, i - 1);
  return s + fmt::format("\\(x : Real). g{} x", n);
}
// h_{k+1} = tanh (w * h_k + c_k), the RNN of BMP §6 unrolled n times (parameters w, h0)
std::string rnn(int n) {
  std::string s = "\\(w : Real, h0 : Real). ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let h{} = tanh (w * h{} + {}) in ", i, i - 1, 0.01 * (i % 17 + 1));
  return s + fmt::format("h{}", n);
}
// x_{k+1} = sin x_k * 0.9: each variable used once
std::string let_series(int n) {
  std::string s = "\\(x : Real). ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let x{} = sin x{} * 0.9 in ", i,
                     i == 1 ? std::string() : std::to_string(i - 1));
  return s + fmt::format("x{}", n);
}
// a_k = sin a_{k-1} + x: every stage reads the previous one and the outer input x
std::string long_range_let(int n) {
  std::string s = "\\(x : Real). ";
  for (int i = 1; i <= n; ++i)
    s += fmt::format("let a{} = sin {} + x in ", i, i == 1 ? "x" : fmt::format("a{}", i - 1));
  return s + fmt::format("a{}", n);
}

std::vector<double> point(const std::string& family, int n) {
  if (family == "wide-sum") return std::vector<double>(static_cast<std::size_t>(n), 0.75);
  if (family == "rnn") return {0.8, 0.1};
  if (family == "sharing-chain") return {1.0};
  return {0.3};
}

enum class Mechanism { r, r1, r2 };

ComplexityFamily family(const std::string& name, std::string (*source)(int), Mechanism m,
                        std::vector<int> sizes) {
  ComplexityFamily f;
  f.calculus = "delta-reverse";
  f.family = name;
  f.sizes = std::move(sizes);
  switch (m) {
  case Mechanism::r:
    f.mechanism = "R (Fig. 11)";
    f.measure = "machine rule steps (Drev run + eval)";
    f.claim = ComplexityClaim::linear;
    f.citation = "seed 001 §7.4 Thm, L599-621; spec §6 P17";
    break;
  case Mechanism::r1:
    f.mechanism = "reverse #1 (Fig. 6)";
    f.measure = "machine rule steps + dense scalar ops";
    f.claim = ComplexityClaim::control;
    f.citation = "seed 001 L342, L350-356; spec §6 P18";
    break;
  case Mechanism::r2:
    f.mechanism = "reverse #2 (Fig. 8)";
    f.measure = "machine rule steps (run + eval_2)";
    f.claim = ComplexityClaim::control;
    f.citation = "seed 001 L405-422; spec §6 P18";
    break;
  }
  f.weights = operation_weights();
  f.make = [name, source, m, weights = f.weights](int n) {
    const RealProgram rp = real_program(parse_closed(source(n)));
    const Program p = rp.program;
    const Value s = point_of(p.s, point(name, n));
    // the weighted primitive firings of the last derivative run (its ledger counts every step)
    const auto ops = std::make_shared<double>(0.0);
    ComplexityInstance in;
    in.primal = [p, s] { return static_cast<double>(run_primal(p, s, family_fuel).steps); };
    // the primal's firings: one more run, untimed, since counting them by name costs per step
    in.primal_ops = [p, s, weights] {
      const auto firings = std::make_shared<RuleCounter>();
      run_primal(p, s, family_fuel, firings);
      return weights.weigh(firings->fired);
    };
    switch (m) {
    case Mechanism::r:
      in.derivative = [p, s, ops, weights] {
        const ReverseRun r =
            reverse(p, s, v_real(1.0), Wrapper::fig11, EvalImpl::map, {}, family_fuel);
        *ops = weights.weigh(r.ledger.rule_counts());
        return static_cast<double>(r.steps);
      };
      break;
    case Mechanism::r1:
      in.derivative = [p, s, ops, weights] {
        const DenseRun r = reverse1(p, s, 1.0, {}, family_fuel);
        // δS operations on vectors of a reals: their scalar operations, not their firings
        *ops = weights.weigh(r.ledger.rule_counts()) + static_cast<double>(r.dense_flops);
        return static_cast<double>(r.steps + r.dense_flops);
      };
      break;
    case Mechanism::r2:
      in.derivative = [p, s, ops, weights] {
        const Delta2Run r = reverse2(p, s, 1.0, {}, family_fuel);
        *ops = weights.weigh(r.ledger.rule_counts());
        return static_cast<double>(r.steps);
      };
      break;
    }
    in.derivative_ops = [ops] { return *ops; };
    return in;
  };
  return f;
}

} // namespace

std::string family_source(const std::string& family, int n) {
  const std::pair<const char*, std::string (*)(int)> sources[] = {
      {"sharing-chain", sharing_chain},     {"wide-sum", sum_chain},
      {"nested-closures", nested_closures}, {"rnn", rnn},
      {"let-series", let_series},           {"long-range-let", long_range_let}};
  for (const auto& [name, source] : sources)
    if (family == name) return source(n);
  throw AdsemError(ErrorKind::usage, "no delta-reverse family " + family);
}

std::vector<double> family_point(const std::string& family, int n) {
  return point(family, n);
}

std::vector<props::ComplexityFamily> complexity_families() {
  const std::vector<int> linear = props::sizes_1_2_5(10, 10'000);
  return {
      family("sharing-chain", sharing_chain, Mechanism::r, linear),
      family("wide-sum", sum_chain, Mechanism::r, linear),
      family("nested-closures", nested_closures, Mechanism::r, linear),
      family("rnn", rnn, Mechanism::r, linear),
      family("let-series", let_series, Mechanism::r, linear),
      family("long-range-let", long_range_let, Mechanism::r, linear),
      // controls: reverse #2 loses the sharing of Delta2 trees (2^n), reverse #1 carries a
      // dense δS of length a through every operation (a²)
      family("sharing-chain", sharing_chain, Mechanism::r2, {4, 6, 8, 10, 12, 14, 16, 18, 20}),
      family("wide-sum", sum_chain, Mechanism::r1, props::sizes_1_2_5(10, 2000)),
  };
}

} // namespace adsem::delta_reverse
