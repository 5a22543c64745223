#include "properties/simple_diff/frontend.hpp"

#include <charconv>

#include "properties/simple_diff/oracles.hpp"
#include "properties/simple_diff/user_rules.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/simple_diff/denotation.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

Options machine_options(const props::EvalOptions& options) {
  Options o = with_rules(Options{}, options.mutant, options.user_rules.get());
  o.fuel = options.fuel;
  o.record_trace = options.trace;
  return o;
}

// One coordinate of a point as `describe` prints it (shortest round-trip text).
double read_real(std::string_view text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw AdsemError(ErrorKind::parse, "not a real: " + std::string(text));
  return value;
}

std::vector<std::string> trace_lines(const std::vector<TraceLine>& trace) {
  std::vector<std::string> lines;
  lines.reserve(trace.size());
  for (const TraceLine& t : trace) {
    std::string line = t.rule;
    if (!t.detail.empty()) {
      line += ": ";
      line += t.detail;
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

} // namespace

std::string Frontend::type_of(const std::string& source) const {
  return print_type(check_source(source).type);
}

props::EvalResult Frontend::eval(const std::string& source,
                                 const props::EvalOptions& options) const {
  const Typed checked = check_source(source);
  const Outcome out = evaluate(checked.term, machine_options(options));
  props::EvalResult result;
  result.value = print_value(out.value);
  result.reals = flatten(out.value); // every closed value is ground here
  result.steps = out.steps;
  result.trace = trace_lines(out.trace);
  return result;
}

props::EvalResult Frontend::reduce(const std::string& source,
                                   const props::EvalOptions& options) const {
  props::EvalOptions traced = options;
  traced.trace = true;
  return eval(source, traced);
}

// [[M]] for a closed M; with --at, the binder form (x:T. N) as a function R^|T| -> R^|U|: its
// value and Jacobian at X, by the model (semantics/simple_diff/denotation.hpp), never by rd.
props::DenoteResult Frontend::denote(const std::string& source,
                                     const std::optional<std::vector<double>>& at) const {
  using denotation::MValue;
  const model::DiffContext context;
  props::DenoteResult result;
  if (!at) {
    const Typed checked = check_source(source);
    const MValue<double> v = denotation::denote<double>(checked.term, {}, context);
    result.printed = denotation::print(v);
    for (const auto& d : denotation::flatten_value(v))
      result.value.push_back(d.primal());
    return result;
  }
  const BinderForm form = parse_binder_form(source, primitives());
  const Typed body = typecheck(form.body, primitives(), {{form.x, form.type}});
  const auto n = static_cast<std::size_t>(type_size(*form.type));
  if (at->size() != n)
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(n) + " reals for " + form.x +
                                           " : " + print_type(form.type) + ", got " +
                                           std::to_string(at->size()));
  const auto f = denotation::as_function<double>(form.x, form.type, body.term, {}, context);
  std::vector<model::Dual<double>> x(at->begin(), at->end());
  const auto y = f(x);
  std::vector<model::Dual<double>> plain;
  for (const auto& d : y) {
    result.value.push_back(d.primal());
    plain.push_back(d);
  }
  result.printed = denotation::print(denotation::unflatten_value<double>(body.type, plain));
  const Eigen::MatrixXd j = model::jacobian(
      f, Eigen::Map<const Eigen::VectorXd>(at->data(), static_cast<Eigen::Index>(n)), context);
  for (Eigen::Index i = 0; i < j.rows(); ++i) {
    std::vector<double> row;
    for (Eigen::Index k = 0; k < j.cols(); ++k)
      row.push_back(j(i, k));
    result.jacobian.push_back(std::move(row));
  }
  return result;
}

props::GradResult Frontend::grad(const std::string& source, const std::vector<double>& at,
                                 const std::string& mechanism,
                                 const props::EvalOptions& options) const {
  Options o = machine_options(options);
  if (mechanism.empty() || mechanism == "rd")
    o.diff = DiffMode::linear;
  else if (mechanism == "rd-literal")
    o.diff = DiffMode::literal;
  else
    throw AdsemError(ErrorKind::usage, "unknown mechanism '" + mechanism +
                                           "' for simple-diff (use rd or rd-literal)");
  BinderForm form = parse_binder_form(source, primitives());
  const Typed body = typecheck(form.body, primitives(), {{form.x, form.type}});
  if (!body.type->is_real())
    throw AdsemError(ErrorKind::type,
                     "grad needs a real-valued body (x:T. N with N : real), but N has type " +
                         print_type(body.type),
                     form.body->pos);
  const auto n = static_cast<std::size_t>(type_size(*form.type));
  if (at.size() != n)
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(n) + " reals for " + form.x +
                                           " : " + print_type(form.type) + ", got " +
                                           std::to_string(at.size()));
  form.body.reset(); // the checked body runs: the parsed one is not kept beside the derivative
  const GradientOutcome out = gradient(form.x, form.type, body.term, at, o);
  props::GradResult result;
  result.value = out.value.as_real();
  result.gradient = flatten(out.gradient);
  result.mechanism = mechanism.empty() ? "rd" : mechanism;
  return result;
}

std::vector<std::string> Frontend::trace_counterexample(const reports::CounterexampleRecord& record,
                                                        const props::EvalOptions& options) const {
  const auto at = record.term.rfind(oracle::point_separator);
  if (at == std::string::npos) return props::Frontend::trace_counterexample(record, options);
  const BinderForm form = parse_binder_form(record.term.substr(0, at), primitives());
  const Typed body = typecheck(form.body, primitives(), {{form.x, form.type}});
  std::vector<double> point;
  std::string_view rest = std::string_view(record.term).substr(at + oracle::point_separator.size());
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    point.push_back(read_real(rest.substr(0, comma)));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  if (point.size() != static_cast<std::size_t>(type_size(*form.type))) return {};
  return trace_lines(
      evaluate(body.term, machine_options(options), {{form.x, unflatten(form.type, point)}}).trace);
}

} // namespace adsem::simple_diff
