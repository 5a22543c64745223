#include "semantics/simple_diff/run.hpp"

#include "semantics/simple_diff/operations.hpp"
#include "syntax/core/large_stack.hpp"

namespace adsem::simple_diff {

const Signature& primitives() {
  return ops::signature();
}

Typed check_source(std::string_view source, const TypeContext& gamma) {
  return on_large_stack(
      [&] { return typecheck(parse_term(source, primitives()), primitives(), gamma); });
}

TypeContext types_of(const ValueContext& rho) {
  TypeContext gamma;
  for (const auto& [x, v] : rho)
    gamma.emplace_back(x, type_of_value(v));
  return gamma;
}

namespace {
void load(Machine& machine, const Term& m, const ValueContext& rho) {
  machine.avoid_names(*m);
  for (const auto& [x, v] : rho) {
    machine.names().avoid(x);
    machine.rho().push(x, v);
  }
}
} // namespace

Evaluation evaluate_unless_stuck(const Term& m, const Options& options, const ValueContext& rho) {
  return on_large_stack([&] {
    Machine machine(options);
    load(machine, m, rho);
    Value v = machine.eval(nullptr, m);
    if (const ApproximantStuck* stuck = machine.stuck_call())
      return Evaluation{std::nullopt, *stuck, std::nullopt};
    if (const AdsemError* error = machine.domain_error())
      return Evaluation{std::nullopt, std::nullopt, *error};
    return Evaluation{Outcome{std::move(v), machine.steps(), machine.trace()}, std::nullopt,
                      std::nullopt};
  });
}

Outcome evaluate(const Term& m, const Options& options, const ValueContext& rho) {
  Evaluation e = evaluate_unless_stuck(m, options, rho);
  if (e.stuck) throw *e.stuck;
  if (e.domain_error) throw *e.domain_error;
  return std::move(*e.outcome);
}

TraceOutcome symbolic_evaluate(const Term& m, const ValueContext& rho, const Options& options) {
  return on_large_stack([&] {
    Machine machine(options);
    load(machine, m, rho);
    Term c = machine.sym(nullptr, m);
    machine.throw_if_stuck();
    return TraceOutcome{std::move(c), machine.steps(), machine.trace()};
  });
}

TraceOutcome symbolic_derivative(const Term& w, const Term& v, const std::string& x, const Type& t,
                                 const Term& c, const Options& options) {
  return on_large_stack([&] {
    Machine machine(options);
    machine.avoid_names(*w);
    machine.avoid_names(*v);
    machine.avoid_names(*c);
    machine.names().avoid(x);
    Term d = machine.differentiate(DiffGoal{w, v, x, t}, c);
    return TraceOutcome{std::move(d), machine.steps(), machine.trace()};
  });
}

GradientOutcome gradient(const std::string& x, const Type& t, const Term& body,
                         const std::vector<double>& at, const Options& options) {
  return on_large_stack([&] {
    const Value point = unflatten(t, at);
    Machine machine(options);
    machine.avoid_names(*body);
    machine.names().avoid(x);
    // N at x = V
    Value value;
    {
      ScopedEnv<Value>::Scope scope(machine.rho());
      machine.rho().push(x, point);
      value = machine.eval(nullptr, body);
      machine.throw_if_stuck();
    }
    // 1.rd_V(x:T. N), evaluated by O-rd
    const Term grad = mk::rd(mk::constant(1.0), value_term(point), x, t, body);
    Value g = machine.eval(nullptr, grad);
    machine.throw_if_stuck();
    return GradientOutcome{std::move(value), std::move(g), machine.steps()};
  });
}

} // namespace adsem::simple_diff
