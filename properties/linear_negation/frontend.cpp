#include "properties/linear_negation/frontend.hpp"

#include "properties/core/result_checks.hpp"
#include "properties/linear_negation/mutants.hpp"
#include "properties/linear_negation/user_rules.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/linear_negation/denotation.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

RunOptions frontend_run_options(const props::EvalOptions& options) {
  RunOptions o;
  o.fuel = options.fuel;
  o.trace = options.trace;
  o.book = book_for(options.mutant, options.user_rules.get());
  return o;
}

TransformOptions transform_options(const props::EvalOptions& options, int d = 1) {
  TransformOptions o;
  o.d = d;
  o.book = book_for(options.mutant, options.user_rules.get());
  return o;
}

// What the CLI must not print as an answer (properties/core/result_checks.hpp): a primitive
// applied to numerals outside its domain, where rule (23) does not fire and the reduction stays
// stuck (spec §4.2), and a non-finite numeral.
void check_normal_form(const Term& t, DepthBudget& budget) {
  const DepthGuard guard(budget);
  if (t->kind == Kind::num) props::require_finite("a numeral of the normal form", t->value);
  if (t->kind == Kind::prim) {
    std::vector<double> args;
    for (const Term& k : t->kids)
      if (const Peeled p = peel(k); p.core->kind == Kind::num) args.push_back(p.core->value);
    if (args.size() == t->kids.size()) props::require_in_domain(t->name, args);
  }
  for (const Term& k : t->kids)
    check_normal_form(k, budget);
}

void check_normal_form(const Term& t) {
  DepthBudget budget{DepthBudget::default_limit, 0, ErrorKind::eval};
  check_normal_form(t, budget);
}

// ground_result, with a stuck primitive reported as the domain error it is.
std::vector<double> checked_ground_result(const Run& run) {
  if (!is_numeral_tuple(run.result)) check_normal_form(run.result);
  return ground_result(run);
}

props::EvalResult result_of(const Run& run) {
  check_normal_form(run.result);
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
    const auto out = checked_ground_result(normalise(elaborate(t).term, o));
    value = out.front();
    return {out.begin() + 1, out.end()};
  }
  for (std::size_t j = 0; j < at.size(); ++j) { // D→(G) seeded with e_j  (Prop. 1)
    Term t = forward_graph(g, names);
    for (std::size_t i = 0; i < at.size(); ++i)
      t = let(exp_binder(f.inputs[i], product_type(real_type(), real_type())), t,
              pair(num(at[i]), num(i == j ? 1 : 0)));
    const auto out = checked_ground_result(normalise(elaborate(t).term, o));
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
  return on_large_stack([&] { // result_of's walks recurse on the normal form (nesting.hpp)
    return result_of(
        normalise(parse_elaborated(source, Mode::target).term, frontend_run_options(options)));
  });
}

props::EvalResult Frontend::reduce(const std::string& source,
                                   const props::EvalOptions& options) const {
  props::EvalOptions o = options;
  o.trace = true;
  return eval(source, o);
}

props::DenoteResult Frontend::denote(const std::string& source,
                                     const std::optional<std::vector<double>>& at) const {
  return on_large_stack([&] { return denote_here(source, at); });
}

props::DenoteResult Frontend::denote_here(const std::string& source,
                                          const std::optional<std::vector<double>>& at) const {
  const Typed t = parse_elaborated(source, at ? Mode::source : Mode::target);
  const model::Value<double> v = linear_negation::denote<double>(t.term, nullptr);
  props::DenoteResult result;
  if (!at) {
    result.printed = props::print_model_value(v);
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
  return on_large_stack([&] { return grad_here(source, at, mechanism, options); });
}

props::GradResult Frontend::grad_here(const std::string& source, const std::vector<double>& at,
                                      const std::string& mechanism,
                                      const props::EvalOptions& options) const {
  const std::string m = mechanism.empty() ? "backprop" : mechanism;
  const RealFunction f = real_function(parse_elaborated(source, Mode::source));
  if (at.size() != f.inputs.size())
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(f.inputs.size()) + " reals");
  RunOptions o = frontend_run_options(options);
  props::GradResult result;
  result.mechanism = m;
  if (m == "backprop") {
    const TransformOptions transform = transform_options(options);
    try {
      const GradientRun g = reduce_gradient(f.body, f.inputs, at, o, transform, true);
      result.value = *g.value;
      result.gradient = g.gradient;
    } catch (const AdsemError& e) {
      if (e.diagnostic().kind != ErrorKind::eval) throw;
      // The wrapper's normal form was not (value, Σ xj' gj): when a primitive is stuck outside
      // its domain, say so (the error path alone pays for normalising the wrapper again).
      const Wrapper w = gradient_wrapper(f.body, f.inputs, at, transform, true);
      RunOptions again = o;
      again.free_types.insert(w.free_types.begin(), w.free_types.end());
      check_normal_form(normalise(w.term, again).result);
      throw;
    }
  } else if (m == "injection") {
    const Wrapper w = gradient_wrapper(
        f.body, f.inputs, at, transform_options(options, static_cast<int>(at.size())), true);
    const auto out = checked_ground_result(normalise(injection_wrapper(w), o));
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
