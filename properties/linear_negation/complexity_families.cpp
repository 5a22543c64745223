// Brunel–Mazza–Pagani's complexity result (seed 002 Thm 15, Cor. 16, L466, L562-566, L646-652;
// spec §6 P20): normalising the gradient term W(t, r) under S_bp costs O(m + |G|) rewriting
// steps, the cost of evaluating t[x := r]. The cost measure is the paper's: one step per
// rewriting rule of Table 2, ≡ free (spec §7). The primal is the S_bp normal form of
// t[x := r]; the derivative the S_bp normal form of W (reduce_gradient). Negative control: the
// same with linear factoring (17) switched off (mutant linear-factoring-disabled), which the
// paper says loses the sharing of backpropagators (spec §8 E6: 2^k steps).
#include "properties/linear_negation/complexity_families.hpp"

#include <memory>
#include <utility>

#include <fmt/format.h>

#include "generators/linear_negation/terms.hpp"
#include "properties/linear_negation/operation_weights.hpp"
#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"

namespace adsem::linear_negation {

namespace {

using props::ComplexityClaim;
using props::ComplexityFamily;
using props::ComplexityInstance;

// E8 of spec §8 (seed 002 §6 L570-644) over a list of n inputs
std::string rnn(int n) {
  return family::rnn(family::rnn_inputs(n));
}

ComplexityFamily bp_family(const std::string& name, std::string (*source)(int), bool factoring,
                           std::vector<int> sizes) {
  ComplexityFamily f;
  f.calculus = "linear-negation";
  f.family = name;
  f.mechanism = factoring ? "S_bp with linear factoring" : "S_bp without linear factoring (17)";
  f.measure = "rewriting steps (Table 2)";
  // (9) counts 1 step however large the copied value (spec §7 P10); its volume Σ|v| is the work
  // the step count leaves out (spec §6 P20.4), reported beside it.
  f.secondary_measure = "copy volume";
  f.claim = factoring ? ComplexityClaim::linear : ComplexityClaim::control;
  f.citation = factoring ? "seed 002 Thm 15, Cor. 16, L562-566; spec §6 P20"
                         : "seed 002 L285-405 (why (17)); spec §8 E6";
  f.sizes = std::move(sizes);
  f.weights = operation_weights();
  f.make = [name, source, factoring, weights = f.weights](int n) {
    const RealFunction fn = real_function(parse_elaborated(source(n), Mode::source));
    gen::Source s;
    s.body = fn.body;
    s.inputs = fn.inputs;
    s.point.assign(fn.inputs.size(), name == "rnn" ? 0.3 : 1.0);
    const Term primal = elaborate(s.closed()).term;
    RunOptions o;
    // The copy budget is 64 units a step of fuel (RunOptions::copy_per_step): the RNN's copy
    // volume at n = 10,000 is 4.54e9 (Θ(n²), spec §6 P20.4), past 50 million steps' 3.2e9.
    o.fuel = 100'000'000;
    o.rules.factoring = factoring;
    // the copied-value volume and the weighted primitive firings of the last run of each side
    // (one pair of cells each per instance)
    const auto volume = std::make_shared<std::pair<double, double>>();
    const auto ops = std::make_shared<std::pair<double, double>>();
    ComplexityInstance in;
    in.primal = [primal, o, volume, ops, weights] {
      const Run run = normalise(primal, o);
      volume->first = static_cast<double>(run.copy_volume);
      ops->first = weights.weigh(run.rule_counts);
      return static_cast<double>(run.steps);
    };
    in.derivative = [s, o, volume, ops, weights] {
      const Run run = reduce_gradient(s.body, s.inputs, s.point, o).run;
      volume->second = static_cast<double>(run.copy_volume);
      ops->second = weights.weigh(run.rule_counts);
      return static_cast<double>(run.steps);
    };
    in.primal_secondary = [volume] { return volume->first; };
    in.derivative_secondary = [volume] { return volume->second; };
    in.primal_ops = [ops] { return ops->first; };
    in.derivative_ops = [ops] { return ops->second; };
    return in;
  };
  return f;
}

} // namespace

std::vector<props::ComplexityFamily> complexity_families() {
  const std::vector<int> linear = props::sizes_1_2_5(10, 10'000);
  return {
      bp_family("sharing-chain", family::square_chain, true, linear),
      bp_family("wide-sum", family::sum_chain, true, linear),
      bp_family("nested-closures", family::square_chain_higher_order, true, linear),
      bp_family("rnn", rnn, true, linear),
      bp_family("let-series", family::let_series, true, linear),
      bp_family("long-range-let", family::long_range_let, true, linear),
      bp_family("sharing-chain", family::square_chain, false, {2, 4, 6, 8, 10, 12, 14, 16, 18, 20}),
      bp_family("nested-closures", family::square_chain_higher_order, false,
                {2, 4, 6, 8, 10, 12, 14, 16, 18, 20}),
  };
}

} // namespace adsem::linear_negation
