#include "properties/simple_diff/frontend.hpp"

#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

Options machine_options(const props::EvalOptions& options) {
  if (!options.mutant.empty())
    throw AdsemError(ErrorKind::usage,
                     "unknown mutant '" + options.mutant + "' (simple-diff has no mutants yet)");
  Options o;
  o.fuel = options.fuel;
  o.record_trace = options.trace;
  return o;
}

std::vector<std::string> trace_lines(const std::vector<TraceLine>& trace) {
  std::vector<std::string> lines;
  lines.reserve(trace.size());
  for (const TraceLine& t : trace) {
    std::string line(rule_name(t.rule));
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

props::DenoteResult Frontend::denote(const std::string&,
                                     const std::optional<std::vector<double>>&) const {
  throw AdsemError(ErrorKind::usage, "denote: the simple-diff model arrives in phase 2");
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
  const BinderForm form = parse_binder_form(source, primitives());
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
  const GradientOutcome out = gradient(form.x, form.type, body.term, at, o);
  props::GradResult result;
  result.value = out.value.as_real();
  result.gradient = flatten(out.gradient);
  result.mechanism = mechanism.empty() ? "rd" : mechanism;
  return result;
}

} // namespace adsem::simple_diff
