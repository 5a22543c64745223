#include "properties/perturbative/frontend.hpp"

#include <cmath>

#include "properties/core/result_checks.hpp"
#include "properties/perturbative/mutants.hpp"
#include "properties/perturbative/user_rules.hpp"
#include "semantics/perturbative/constants.hpp"
#include "semantics/perturbative/denotation.hpp"
#include "semantics/perturbative/rules.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "semantics/perturbative/substitution.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

bool ground(const Type& t) {
  return t->kind == TypeNode::Kind::real || (is_product(t) && ground(t->left) && ground(t->right));
}
std::size_t dimension(const Type& t) {
  return is_product(t) ? dimension(t->left) + dimension(t->right) : 1;
}

Term ground_value_from(const Type& sigma, const std::vector<double>& xs, std::size_t& next) {
  if (is_product(sigma)) {
    const Term a = ground_value_from(sigma->left, xs, next);
    const Term b = ground_value_from(sigma->right, xs, next);
    return pair(a, b);
  }
  return numeral(xs.at(next++));
}

// The element at position i (left to right) of p : σ, as π-projections.
Term component_at(const Term& p, const Type& sigma, std::size_t& i) {
  if (!is_product(sigma)) return p;
  const std::size_t left = dimension(sigma->left);
  if (i < left) return component_at(proj(1, p), sigma->left, i);
  i -= left;
  return component_at(proj(2, p), sigma->right, i);
}

RunOptions frontend_run_options(const props::EvalOptions& options) {
  RunOptions o;
  o.fuel = options.fuel;
  o.trace = options.trace;
  return o;
}

// What the CLI must not print as an answer (properties/core/result_checks.hpp): a primitive
// applied to numerals outside its domain, where δ does not fire and the reduction stays stuck
// (spec §7), and a non-finite numeral (ν adds numerals without δ's overflow check).
void check_normal_form(const Term& m, DepthBudget& budget);

void check_simple(const Simple& s, DepthBudget& budget) {
  const DepthGuard guard(budget);
  if (s.kind == Kind::numeral) props::require_finite("a numeral of the normal form", s.value);
  if (s.kind == Kind::app && s.operand->kind == Kind::primitive)
    if (const Primitive* p = primitives().find(s.operand->name))
      if (const auto v = numeric_argument(s.argument, p->arity()))
        props::require_in_domain(p->name(), *v);
  if (s.operand) check_simple(*s.operand, budget);
  check_normal_form(s.argument, budget);
}

void check_normal_form(const Term& m, DepthBudget& budget) {
  for (const SimpleP& s : m.items)
    check_simple(*s, budget);
}

void check_normal_form(const Term& m) {
  DepthBudget budget{DepthBudget::default_limit, 0, ErrorKind::eval};
  check_normal_form(m, budget);
}

props::EvalResult result_of(const Run& run) {
  check_normal_form(run.result);
  props::EvalResult result;
  result.value = print(run.result);
  if (is_numeric_value(run.result)) result.reals = numeric_reals(run.result);
  result.steps = run.steps;
  result.trace = run.trace;
  return result;
}

double real_of(const Term& normal_form) {
  if (!is_numeric_value(normal_form) || normal_form.type->kind != TypeNode::Kind::real) {
    check_normal_form(normal_form); // a primitive stuck outside its domain: a domain error
    throw AdsemError(ErrorKind::eval,
                     "the function did not reduce to a number at this point (normal form: " +
                         print(normal_form) + ")");
  }
  return numeric_reals(normal_form).front();
}

} // namespace

Term parse_closed(const std::string& source) {
  return parse_term(source, constant_types());
}

Term ground_value(const Type& sigma, const std::vector<double>& xs) {
  std::size_t next = 0;
  Term out = ground_value_from(sigma, xs, next);
  if (next != xs.size())
    throw AdsemError(ErrorKind::usage, "expected " + std::to_string(next) + " reals, got " +
                                           std::to_string(xs.size()));
  return out;
}

namespace {

// The number of real inputs of a function type that grad/denote --at accept (tupled or curried),
// read off the type alone: the --at arity is checked before any term is built (a
// 9,000-deep curried λ with a wrong --at used to build an O(n²) tuple projection first).
std::size_t real_inputs(const Term& f) {
  if (!is_arrow(f.type)) return 0;
  if (ground(f.type->left) && f.type->right->kind == TypeNode::Kind::real)
    return dimension(f.type->left);
  std::size_t n = 0;
  Type t = f.type;
  while (is_arrow(t) && t->left->kind == TypeNode::Kind::real) {
    ++n;
    t = t->right;
  }
  return t->kind == TypeNode::Kind::real ? n : 0;
}

void check_arity(const Term& f, std::size_t given) {
  const std::size_t n = real_inputs(f);
  if (n != 0 && n != given)
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(n) + " reals");
}

} // namespace

Tupled tupled_real_function(const Term& f) {
  const auto fail = [&] {
    throw AdsemError(ErrorKind::type, "grad needs a function of reals to R (R -> R, a product of "
                                      "R's -> R, or curried), got " +
                                          type_text(f.type));
  };
  if (!is_arrow(f.type)) fail();
  if (ground(f.type->left) && f.type->right->kind == TypeNode::Kind::real)
    return {f, f.type->left, dimension(f.type->left)};
  // curried R -> R -> ... -> R: λp:R*(R*...). f (π1 p) (π1 (π2 p)) ...
  std::size_t n = 0;
  Type t = f.type;
  while (is_arrow(t) && t->left->kind == TypeNode::Kind::real) {
    ++n;
    t = t->right;
  }
  if (t->kind != TypeNode::Kind::real || n == 0) fail();
  Type sigma = real_type();
  for (std::size_t i = 1; i < n; ++i)
    sigma = product_type(real_type(), sigma);
  const std::string p = fresh_name("p", free_variables(f));
  Term body = f;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t at = i;
    body = app(body, component_at(var(p, sigma), sigma, at));
  }
  return {lam(p, sigma, body), sigma, n};
}

std::string Frontend::type_of(const std::string& source) const {
  return print_type(parse_closed(source).type);
}

props::EvalResult Frontend::eval(const std::string& source,
                                 const props::EvalOptions& options) const {
  const Term m = parse_closed(source);
  return result_of(normalise(m, *semantics_for(options.mutant, options.user_rules.get()).rules,
                             frontend_run_options(options)));
}

props::EvalResult Frontend::reduce(const std::string& source,
                                   const props::EvalOptions& options) const {
  const Term m = parse_closed(source);
  RunOptions o = frontend_run_options(options);
  o.trace = true;
  return result_of(
      reduce_small_step(m, *semantics_for(options.mutant, options.user_rules.get()).rules, o));
}

props::DenoteResult Frontend::denote(const std::string& source,
                                     const std::optional<std::vector<double>>& at) const {
  const Term m = parse_closed(source);
  const DenoteContext context;
  const model::Value<double> v = perturbative::denote<double>(m, nullptr, context);
  props::DenoteResult result;
  if (!at) {
    result.printed = props::print_model_value(v);
    if (ground(m.type)) result.value = model::flatten_primal(v);
    return result;
  }
  check_arity(m, at->size());
  const Tupled f = tupled_real_function(m);
  if (at->size() != f.inputs)
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(f.inputs) + " reals");
  const model::Value<double> g = perturbative::denote<double>(f.function, nullptr, context);
  const model::Value<double> point =
      perturbative::denote<double>(ground_value(f.domain, *at), nullptr, context);
  const model::Value<double> y = g(point);
  result.printed = props::print_model_value(y);
  result.value = model::flatten_primal(y);
  result.jacobian.assign(result.value.size(), std::vector<double>(f.inputs, 0.0));
  for (std::size_t i = 0; i < f.inputs; ++i) {
    std::vector<double> e(f.inputs, 0.0);
    e[i] = 1.0;
    const model::Value<double> tangent =
        perturbative::denote<double>(ground_value(f.domain, e), nullptr, context);
    const auto column =
        model::flatten_primal(model::directional_derivative(g, point, tangent, context.diff));
    for (std::size_t r = 0; r < column.size(); ++r)
      result.jacobian[r][i] = column[r];
  }
  return result;
}

props::GradResult Frontend::grad(const std::string& source, const std::vector<double>& at,
                                 const std::string& mechanism,
                                 const props::EvalOptions& options) const {
  const bool small = mechanism == "small-step";
  if (!mechanism.empty() && mechanism != "pushforward" && !small)
    throw AdsemError(ErrorKind::usage, "unknown mechanism '" + mechanism +
                                           "' for perturbative (use pushforward or small-step)");
  const Semantics& semantics = semantics_for(options.mutant, options.user_rules.get());
  const Rules& rules = *semantics.rules;
  const RunOptions o = frontend_run_options(options);
  const auto run = [&](const Term& term) {
    return real_of(small ? reduce_small_step(term, rules, o).result
                         : normalise(term, rules, o).result);
  };
  const Term parsed = parse_closed(source);
  check_arity(parsed, at.size());
  const Tupled f = tupled_real_function(parsed);
  if (at.size() != f.inputs)
    throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(f.inputs) + " reals");
  const Term point = ground_value(f.domain, at);
  props::GradResult result;
  result.mechanism = small ? "small-step" : "pushforward";
  result.value = run(app(f.function, point));
  for (std::size_t i = 0; i < f.inputs; ++i) {
    std::vector<double> e(f.inputs, 0.0);
    e[i] = 1.0;
    // ∂_i f(a) = D(f, e_i, a) = π1 (T f (e_i, a)) (spec §8 E2; tangent first, L34)
    result.gradient.push_back(
        run(semantics.derivative(f.function, ground_value(f.domain, e), point)));
  }
  return result;
}

} // namespace adsem::perturbative
