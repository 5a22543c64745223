#include "properties/pullback/frontend.hpp"

#include <set>

#include "properties/core/result_checks.hpp"
#include "properties/pullback/mutants.hpp"
#include "properties/pullback/user_rules.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/linear_maps.hpp"
#include "semantics/pullback/denotation.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/sparse_stages.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"
#include "syntax/pullback/nesting.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback {

namespace {

// A non-finite numeral or covector entry anywhere in the normal form (also beside a λ, where
// no flattened reals exist for the command to check) is reported, not printed as `inf`.
void require_finite_numerals(const Term& t, DepthBudget& budget) {
  const DepthGuard guard(budget);
  if (t->kind == Kind::num) props::require_finite("a numeral of the normal form", t->value);
  if (t->kind == Kind::covec)
    for (const Covector::Entry& e : t->vec.entries())
      props::require_finite("a covector entry of the normal form", e.value);
  for (const Term& k : t->kids)
    require_finite_numerals(k, budget);
}

props::EvalResult result_of(const Run& run) {
  DepthBudget budget{max_term_nesting, 0, ErrorKind::eval}; // as the printer (nesting.hpp)
  require_finite_numerals(run.result, budget);
  props::EvalResult r;
  r.value = print(run.result);
  if (is_numeral_tuple(run.result)) {
    std::vector<double> xs;
    flatten_numerals(run.result, xs);
    r.reals = xs;
  } else if (run.result->kind == Kind::covec) {
    r.reals = run.result->vec.dense();
  }
  r.steps = run.steps;
  r.trace = run.trace;
  return r;
}

RunOptions frontend_run_options(const props::EvalOptions& o, bool trace) {
  RunOptions r;
  r.fuel = o.fuel;
  r.trace = trace;
  return r;
}

} // namespace

Term parse_closed(const std::string& source) {
  const Term t = annotate_zeros(parse(source));
  typecheck(t, {}, LinMode::strict);
  return t;
}

Rules rules_for(const std::string& mutant) {
  Rules r;
  r.book = mutant_book(mutant);
  return r;
}

Tupled tupled_real_function(const Term& f) {
  const Type t = pullback::type_of(f);
  const auto fail = [&] {
    throw AdsemError(ErrorKind::type,
                     "grad needs a closed function from reals to R (a Euclidean type -> R, or "
                     "curried R -> ... -> R), got " +
                         type_text(t));
  };
  if (!is_arrow(t)) fail();
  if (is_euclidean(t->left) && is_real(t->right)) return {f, t->left};
  std::size_t n = 0;
  Type at = t;
  while (is_arrow(at) && is_real(at->left)) {
    ++n;
    at = at->right;
  }
  if (!is_real(at)) fail();
  const Type sigma = real_power(n);
  const std::string p = fresh_name("p", free_vars(f));
  // A syntactic curried λx₁…λxₙ.B becomes the pattern λ λ⟨x₁,…,xₙ⟩.B ≡ λp.B[p_{π..}/xᵢ] (seed
  // 000 §3.1.3 L167-173, spec §2.3): the function's own body, first order when B is. Applying f
  // instead (λp. f p₁ … pₙ) would put f's λ inside the differentiated body, where rule 19b's
  // premise differentiates it symbolically (docs/performance.md, pullback).
  const std::vector<Term> parts = components(var(p, sigma), n); // over one shared spine
  // The λs' names distinct and not p: no λ of the chain shadows or renames, so substituting
  // through the chain is substituting into the body below it (one walk, substitute_each).
  Term body = f;
  std::vector<std::pair<std::string, Term>> by;
  std::set<std::string> names;
  bool plain = true;
  std::size_t k = 0;
  for (; k < n && body->kind == Kind::lam; ++k) {
    plain = plain && body->name != p && names.insert(body->name).second;
    by.emplace_back(body->name, parts[k]);
    body = body->kids[0];
  }
  if (plain) {
    body = substitute_each(body, by);
  } else {
    body = f;
    for (const auto& [x, part] : by)
      body = substitute(body->kids[0], x, part);
  }
  for (; k < n; ++k)
    body = app(body, parts[k]);
  return {lam(p, sigma, body), sigma};
}

Term gradient_query(const Tupled& f, const std::vector<double>& cotangent,
                    const std::vector<double>& at) {
  const Type cod = pullback::type_of(f.function)->right;
  const Term omega = lam("u", cod, covec(cotangent, cod));
  // The paper's query pulls back along the function itself: ((Ω λx.P)·ω) V for f = λx.P (seed
  // 000 Ex. 3.1/3.9 L381-387, Cor. 4.8). Only a function that is not a syntactic λ is applied.
  if (f.function->kind == Kind::lam)
    return app(pullback(f.function->name, f.domain, f.function->kids[0], omega),
               numeral_tuple(f.domain, at));
  return eta_gradient_query(f, cotangent, at);
}

Term eta_gradient_query(const Tupled& f, const std::vector<double>& cotangent,
                        const std::vector<double>& at) {
  const std::string y = fresh_name("y", free_vars(f.function));
  const Type cod = pullback::type_of(f.function)->right;
  const Term omega = lam("u", cod, covec(cotangent, cod));
  return app(pullback(y, f.domain, app(f.function, var(y, f.domain)), omega),
             numeral_tuple(f.domain, at));
}

std::string Frontend::type_of(const std::string& source) const {
  return on_large_stack([&] { return type_text(pullback::type_of(parse_closed(source))); });
}

props::EvalResult Frontend::eval(const std::string& source,
                                 const props::EvalOptions& options) const {
  return on_large_stack([&] {
    const Term t = parse_closed(source);
    return result_of(normalise(t, rules_for(options.mutant, options.user_rules),
                               frontend_run_options(options, options.trace)));
  });
}

props::EvalResult Frontend::reduce(const std::string& source,
                                   const props::EvalOptions& options) const {
  return on_large_stack([&] {
    const Term t = parse_closed(source);
    return result_of(normalise(t, rules_for(options.mutant, options.user_rules),
                               frontend_run_options(options, true)));
  });
}

props::DenoteResult Frontend::denote(const std::string& source,
                                     const std::optional<std::vector<double>>& at) const {
  return on_large_stack([&] {
    const Term t = parse_closed(source);
    const DenoteContext context;
    const model::Value<double> v = pullback::denote<double>(t, nullptr, context);
    const Type ty = pullback::type_of(t);
    props::DenoteResult result;
    if (!at) {
      if (is_euclidean(ty)) {
        result.value = model::flatten_primal(v);
        result.printed = props::print_model_value(v);
      } else if (is_dual(ty) && is_euclidean(ty->left)) { // tabulate the covector (n probes)
        const std::vector<double> zeros(dim(ty->left), 0.0);
        const Eigen::VectorXd c = model::covector_coefficients(
            v, pullback::denote<double>(numeral_tuple(ty->left, zeros), nullptr, context));
        result.value.assign(c.data(), c.data() + c.size());
        result.printed = print(covec(result.value, ty->left));
      } else {
        result.printed = props::print_model_value(v);
      }
      return result;
    }
    const Tupled f = tupled_real_function(t);
    if (at->size() != dim(f.domain))
      throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(dim(f.domain)) + " reals");
    const model::Value<double> g = pullback::denote<double>(f.function, nullptr, context);
    const model::Value<double> point =
        pullback::denote<double>(numeral_tuple(f.domain, *at), nullptr, context);
    const model::Value<double> y = g(point);
    result.printed = props::print_model_value(y);
    result.value = model::flatten_primal(y);
    const Eigen::MatrixXd j = model::jacobian(g, point, context.diff);
    result.jacobian.assign(static_cast<std::size_t>(j.rows()), {});
    for (Eigen::Index r = 0; r < j.rows(); ++r)
      for (Eigen::Index c = 0; c < j.cols(); ++c)
        result.jacobian[static_cast<std::size_t>(r)].push_back(j(r, c));
    return result;
  });
}

props::GradResult Frontend::grad(const std::string& source, const std::vector<double>& at,
                                 const std::string& mechanism,
                                 const props::EvalOptions& options) const {
  return on_large_stack([&]() -> props::GradResult {
    Rules rules = rules_for(options.mutant, options.user_rules);
    const bool sparse = mechanism == "pullback-sparse";
    if (mechanism == "pullback-literal-anf")
      rules.bind_atoms = true;
    else if (!mechanism.empty() && mechanism != "pullback" && !sparse)
      throw AdsemError(
          ErrorKind::usage,
          "unknown mechanism '" + mechanism +
              "' for pullback (use pullback, pullback-literal-anf or pullback-sparse)");
    const Tupled f = tupled_real_function(parse_closed(source));
    if (at.size() != dim(f.domain))
      throw AdsemError(ErrorKind::usage, "--at needs " + std::to_string(dim(f.domain)) + " reals");
    // The extension (flat stages, sparse covectors; sparse_stages.hpp) on first-order Euclidean
    // bodies of the paper's rules' own book; elsewhere, and under a mutant or user rules, the
    // paper's mechanism reduces the query.
    if (sparse && f.function->kind == Kind::lam && options.mutant.empty() && !options.user_rules) {
      if (const auto s =
              sparse_stage_gradient(f.function->kids[0], f.function->name, f.domain, at, {1.0})) {
        if (s->value.size() != 1) throw AdsemError(ErrorKind::eval, "the value is not a numeral");
        return {s->value[0], s->gradient, "pullback-sparse"};
      }
    }
    const RunOptions o = frontend_run_options(options, false);
    props::GradResult result;
    result.mechanism = sparse             ? "pullback-sparse (the paper's rules: not first order)"
                       : rules.bind_atoms ? "pullback-literal-anf"
                                          : "pullback";
    const Run primal = normalise(app(f.function, numeral_tuple(f.domain, at)), rules, o);
    if (primal.result->kind != Kind::num)
      throw AdsemError(ErrorKind::eval, "the value is not a numeral: " + print(primal.result));
    result.value = primal.result->value;
    const Run g = normalise(gradient_query(f, {1.0}, at), rules, o);
    if (g.result->kind == Kind::zero) {
      result.gradient.assign(dim(f.domain), 0.0);
    } else if (g.result->kind == Kind::covec) {
      result.gradient = g.result->vec.dense();
    } else {
      throw AdsemError(ErrorKind::eval,
                       "the gradient query did not reach a covector literal: " + print(g.result));
    }
    return result;
  });
}

} // namespace adsem::pullback
