#include "properties/linear_negation/frontend.hpp"

#include "semantics/core/jacobian.hpp"
#include "semantics/linear_negation/denotation.hpp"
#include "semantics/linear_negation/mutants.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

RunOptions run_options(const props::EvalOptions& options) {
  RunOptions o;
  o.fuel = options.fuel;
  o.trace = options.trace;
  o.rules = mutant::rules_for(options.mutant);
  return o;
}

props::EvalResult result_of(const Run& run) {
  props::EvalResult r;
  r.value = print(run.result);
  if (is_numeral_tuple(run.result)) r.reals = numeral_reals(run.result);
  r.steps = run.steps;
  r.trace = run.trace;
  return r;
}

std::vector<double> graph_gradient(const RealFunction& f, const std::vector<double>& at,
                                   bool forward, double& value, const RunOptions& o) {
  Names names(f.body);
  for (const auto& x : f.inputs)
    names.reserve(x);
  const Term g = groundify(f.body, names);
  std::vector<double> grad;
  if (!forward) { // bp_{x,a}(G)[a := 1][x := r]  (Prop. 12)
    const std::string a = names.fresh("a");
    Term t = let(exp_binder(a, real_type()), backprop_graph(g, f.inputs, a, names), num(1));
    for (std::size_t i = 0; i < at.size(); ++i)
      t = let(exp_binder(f.inputs[i], real_type()), t, num(at[i]));
    const auto out = ground_result(normalise(elaborate(t).term, o));
    value = out.front();
    return {out.begin() + 1, out.end()};
  }
  for (std::size_t j = 0; j < at.size(); ++j) { // D→(G) seeded with e_j  (Prop. 1)
    Term t = forward_graph(g, names);
    for (std::size_t i = 0; i < at.size(); ++i)
      t = let(exp_binder(f.inputs[i], product_type(real_type(), real_type())), t,
              pair(num(at[i]), num(i == j ? 1 : 0)));
    const auto out = ground_result(normalise(elaborate(t).term, o));
    value = out.at(0);
    grad.push_back(out.at(1));
  }
  return grad;
}

} // namespace

std::string Frontend::type_of(const std::string& source) const {
  return print_type(parse_elaborated(source, Mode::target).type);
}

props::EvalResult Frontend::eval(const std::string& source,
                                 const props::EvalOptions& options) const {
  return result_of(normalise(parse_elaborated(source, Mode::target).term, run_options(options)));
}

props::EvalResult Frontend::reduce(const std::string& source,
                                   const props::EvalOptions& options) const {
  props::EvalOptions o = options;
  o.trace = true;
  return eval(source, o);
}

props::DenoteResult Frontend::denote(const std::string& source,
                                     const std::optional<std::vector<double>>& at) const {
  const Typed t = parse_elaborated(source, at ? Mode::source : Mode::target);
  const model::Value<double> v = linear_negation::denote<double>(t.term, nullptr);
  props::DenoteResult result;
  if (!at) {
    result.printed = model::to_string(v);
    if (is_first_order(t.type)) result.value = model::flatten_primal(v);
    return result;
  }
  const RealFunction f = real_function(t);
  if (at->size() != f.inputs.size())
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(f.inputs.size()) + " reals");
  // the body as a model function of its inputs (never this calculus's D or reduction)
  const model::VectorFunction<model::Dual<double>> fn =
      [&](std::span<const model::Dual<double>> x) {
        Env<double> env;
        for (std::size_t i = 0; i < x.size(); ++i)
          env = bind<double>(env, f.inputs[i], model::Value<double>(x[i]));
        return std::vector<model::Dual<double>>{
            linear_negation::denote<double>(f.body, env).real()};
      };
  const Eigen::VectorXd point =
      Eigen::Map<const Eigen::VectorXd>(at->data(), static_cast<long>(at->size()));
  std::vector<model::Dual<double>> xs;
  for (double r : *at)
    xs.emplace_back(r);
  result.value = {model::primal_of(fn(xs).front())};
  result.printed = format_real(result.value.front());
  const Eigen::MatrixXd j = model::jacobian(fn, point);
  result.jacobian.assign(1, std::vector<double>(j.cols()));
  for (long c = 0; c < j.cols(); ++c)
    result.jacobian[0][static_cast<std::size_t>(c)] = j(0, c);
  return result;
}

props::GradResult Frontend::grad(const std::string& source, const std::vector<double>& at,
                                 const std::string& mechanism,
                                 const props::EvalOptions& options) const {
  const std::string m = mechanism.empty() ? "backprop" : mechanism;
  const RealFunction f = real_function(parse_elaborated(source, Mode::source));
  if (at.size() != f.inputs.size())
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(f.inputs.size()) + " reals");
  RunOptions o = run_options(options);
  props::GradResult result;
  result.mechanism = m;
  if (m == "backprop") {
    const GradientRun g =
        reduce_gradient(f.body, f.inputs, at, o, mutant::transform_for(options.mutant), true,
                        mutant::wrong_component(options.mutant));
    result.value = *g.value;
    result.gradient = g.gradient;
  } else if (m == "injection") {
    const Wrapper w =
        gradient_wrapper(f.body, f.inputs, at,
                         mutant::transform_for(options.mutant, static_cast<int>(at.size())), true);
    const auto out = ground_result(normalise(injection_wrapper(w), o));
    result.value = out.front();
    result.gradient.assign(out.begin() + 1, out.end());
  } else if (m == "bp" || m == "forward") {
    result.gradient = graph_gradient(f, at, m == "forward", result.value, o);
  } else {
    throw AdsemError(ErrorKind::usage,
                     "unknown mechanism '" + m + "' (use backprop, injection, bp or forward)");
  }
  return result;
}

} // namespace adsem::linear_negation
