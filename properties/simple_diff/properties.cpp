// The properties of simple-diff (spec §6; seed 003 Sections 3-6). Each body draws a well-typed
// open term Γ = {x : T} ⊢ M : U (generators/simple_diff) and a point X, runs the operational
// semantics (with the campaign's mutant) and the model (denotation.hpp), and compares. Undefined
// points, guard boundaries and fuel are discard reasons, never passes.
#include "properties/simple_diff/properties.hpp"

#include <fmt/format.h>

#include "properties/simple_diff/oracles.hpp"
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/simple_diff/denotation.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

using props::PropertyContext;
using props::TrialResult;
using Kind = TrialResult::Kind;

struct Trial {
  gen::OpenTerm t;
  std::vector<double> at;

  TrialResult done(TrialResult r) const {
    r.on(oracle::describe(t, at), print_type(t.type), static_cast<int>(term_size(*t.term)),
         gen::construct_tags(t.term));
    return r;
  }
};

Trial draw(const gen::TermOptions& options = {}) {
  gen::OpenTerm t = *gen::open_term(options);
  std::vector<double> at = *gen::point(type_size(*t.t));
  return {std::move(t), std::move(at)};
}

std::string discard_reason(ErrorKind kind) {
  return kind == ErrorKind::fuel ? "fuel" : kind == ErrorKind::domain ? "undefined-point" : "error";
}

// ---- typing and syntax ---------------------------------------------------------------------

// P-TY-1 unique typing (seed 003 line 183): the elaborated term re-checks to the same type, and
// so does its printed form.
TrialResult unique_typing(const PropertyContext&) {
  const Trial tr = draw();
  const TypeContext gamma = {{tr.t.x, tr.t.t}};
  const Typed again = typecheck(tr.t.term, primitives(), gamma);
  if (!type_equal(again.type, tr.t.type))
    return tr.done(
        TrialResult::fail("re-checking the elaborated term gives " + print_type(again.type)));
  const Typed printed =
      typecheck(parse_term(print_term(tr.t.term), primitives()), primitives(), gamma);
  if (!type_equal(printed.type, tr.t.type))
    return tr.done(TrialResult::fail("the printed term has type " + print_type(printed.type)));
  return tr.done(TrialResult::pass());
}

// spec §2.6: print then parse gives an alpha-equivalent term.
TrialResult round_trip(const PropertyContext&) {
  const Trial tr = draw();
  const std::string text = print_term(tr.t.term);
  const Typed back = typecheck(parse_term(text, primitives()), primitives(), {{tr.t.x, tr.t.t}});
  if (!alpha_equal(back.term, tr.t.term))
    return tr.done(TrialResult::fail("re-parsed term differs: " + print_term(back.term)));
  return tr.done(TrialResult::pass());
}

// ---- operational ---------------------------------------------------------------------------

// Prop. 3.6 (seed 003 lines 463-469; spec §11.10): M ⇒ V gives ⊢ V : U, and M ⇝ C gives
// Γ ⊢ C : U with C a trace term.
TrialResult type_preservation(const PropertyContext& context) {
  const Trial tr = draw();
  const Options options = oracle::machine_options(context);
  const oracle::Operational op = oracle::run(tr.t.term, tr.t.x, tr.t.t, tr.at, options);
  if (!op.value) return tr.done(TrialResult::discard(discard_reason(op.error)));
  if (!type_equal(op.type, tr.t.type))
    return tr.done(TrialResult::fail("the value has type " + print_type(op.type)));
  TermPtr c;
  try {
    c = symbolic_evaluate(tr.t.term, {{tr.t.x, unflatten(tr.t.t, tr.at)}}, options).trace;
  } catch (const AdsemError& e) {
    return tr.done(
        TrialResult::fail(std::string("M evaluates but symbolic evaluation fails: ") + e.what()));
  }
  if (!is_trace_term(*c)) return tr.done(TrialResult::fail("the trace is not a trace term"));
  const Typed typed = typecheck(c, primitives(), {{tr.t.x, tr.t.t}});
  if (!type_equal(typed.type, tr.t.type))
    return tr.done(TrialResult::fail("the trace has type " + print_type(typed.type)));
  return tr.done(TrialResult::pass());
}

// Prop. 3.5 operational interpolation (seed 003 lines 445-451): M ⇒ V iff M ⇝ C and C ⇒ V.
TrialResult interpolation(const PropertyContext& context) {
  const Trial tr = draw();
  const Options options = oracle::machine_options(context);
  const oracle::Operational op = oracle::run(tr.t.term, tr.t.x, tr.t.t, tr.at, options);
  if (!op.value && op.error == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
  TermPtr c;
  try {
    c = symbolic_evaluate(tr.t.term, {{tr.t.x, unflatten(tr.t.t, tr.at)}}, options).trace;
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
    if (op.value)
      return tr.done(TrialResult::fail(std::string("M ⇒ V but M ⇝ fails: ") + e.what()));
    return tr.done(TrialResult::pass()); // both undefined
  }
  const oracle::Operational via = oracle::run(c, tr.t.x, tr.t.t, tr.at, options);
  if (!op.value || !via.value) {
    if (!op.value && !via.value) return tr.done(TrialResult::pass());
    return tr.done(TrialResult::fail(
        fmt::format("M {} but its trace {}", op.value ? "evaluates" : "fails: " + op.message,
                    via.value ? "evaluates" : "fails: " + via.message)));
  }
  return tr.done(oracle::compare_vectors(*op.value, "eval(M)", *via.value, "eval(trace)",
                                         CheckKind::exact_value, context));
}

// ---- adequacy ------------------------------------------------------------------------------

// Thm 6.2(1) (seed 003 lines 877-883): M ⇒ V implies [[M]] = [[V]]; and an evaluation error is
// only right where the denotation is undefined.
TrialResult operational_correctness(const PropertyContext& context) {
  const Trial tr = draw();
  const oracle::Operational op =
      oracle::run(tr.t.term, tr.t.x, tr.t.t, tr.at, oracle::machine_options(context));
  if (!op.value && op.error == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
  const oracle::Denotation d = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
  if (!d.uncertified.empty()) return tr.done(TrialResult::discard(d.uncertified));
  if (!op.value) {
    if (d.status == oracle::Denotation::Status::undefined) return tr.done(TrialResult::pass());
    return tr.done(
        TrialResult::fail("evaluation fails (" + op.message + ") where the denotation is defined"));
  }
  if (d.status != oracle::Denotation::Status::defined)
    return tr.done(TrialResult::fail("M evaluates but its denotation is undefined: " + d.message));
  return tr.done(oracle::compare_vectors(d.value, "[[M]]", *op.value, "eval(M)",
                                         CheckKind::exact_value, context));
}

// Thm 6.7(1) (seed 003 lines 996-1014): a defined (certified) denotation means M evaluates,
// within fuel, to it.
TrialResult operational_completeness(const PropertyContext& context) {
  const Trial tr = draw();
  const oracle::Denotation d = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
  if (!d.uncertified.empty()) return tr.done(TrialResult::discard(d.uncertified));
  if (d.status != oracle::Denotation::Status::defined)
    return tr.done(TrialResult::discard("undefined-point"));
  const oracle::Operational op =
      oracle::run(tr.t.term, tr.t.x, tr.t.t, tr.at, oracle::machine_options(context));
  if (!op.value)
    return tr.done(
        TrialResult::fail("the denotation is defined but evaluation fails: " + op.message));
  return tr.done(oracle::compare_vectors(d.value, "[[M]]", *op.value, "eval(M)",
                                         CheckKind::exact_value, context));
}

// The model's Jacobian of x ↦ [[M]] at X (rows: outputs).
Eigen::MatrixXd model_jacobian(const TermPtr& m, const std::string& x, const TypePtr& t,
                               const std::vector<double>& at) {
  const model::DiffContext context;
  const auto f = denotation::as_function<double>(x, t, m, {}, context);
  return model::jacobian(
      f, Eigen::Map<const Eigen::VectorXd>(at.data(), static_cast<Eigen::Index>(at.size())),
      context);
}

std::vector<double> entries(const Eigen::MatrixXd& j) {
  std::vector<double> out;
  for (Eigen::Index r = 0; r < j.rows(); ++r)
    for (Eigen::Index c = 0; c < j.cols(); ++c)
      out.push_back(j(r, c));
  return out;
}

// Thm 6.2(2) (seed 003 lines 885-904; spec P-AD-3 (a), (c)): M ⇝ C gives [[M]] = [[C]] on a
// neighbourhood of X: the values and the Jacobians with respect to x agree at X.
TrialResult symbolic_evaluation_correct(const PropertyContext& context) {
  const Trial tr = draw();
  const oracle::Denotation d = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
  if (!d.uncertified.empty()) return tr.done(TrialResult::discard(d.uncertified));
  if (d.status != oracle::Denotation::Status::defined)
    return tr.done(TrialResult::discard("undefined-point"));
  TermPtr c;
  try {
    c = symbolic_evaluate(tr.t.term, {{tr.t.x, unflatten(tr.t.t, tr.at)}},
                          oracle::machine_options(context))
            .trace;
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
    return tr.done(TrialResult::fail(std::string("[[M]] is defined but M ⇝ fails: ") + e.what()));
  }
  try {
    const oracle::Denotation dc = oracle::denote(c, tr.t.x, tr.t.t, tr.at, false);
    if (dc.status != oracle::Denotation::Status::defined)
      return tr.done(TrialResult::fail("[[M]] is defined but [[C]] is not: " + dc.message));
    auto r = oracle::compare_vectors(d.value, "[[M]]", dc.value, "[[C]]", CheckKind::exact_value,
                                     context);
    if (r.kind != Kind::pass) return tr.done(r);
    return tr.done(
        oracle::compare_vectors(entries(model_jacobian(tr.t.term, tr.t.x, tr.t.t, tr.at)), "J[[M]]",
                                entries(model_jacobian(c, tr.t.x, tr.t.t, tr.at)), "J[[C]]",
                                CheckKind::derivative, context));
  } catch (const AdsemError& e) {
    return tr.done(TrialResult::discard(discard_reason(e.diagnostic().kind)));
  }
}

// ---- AD correctness ------------------------------------------------------------------------

// Thm 6.1 (seed 003 lines 847-875; spec P-AD-1): for a trace term C, the value of W.R_V(x:T. C)
// is J^T W of x ↦ [[C]] at V, by the model.
TrialResult symbolic_differentiation_correct(const PropertyContext& context) {
  gen::TermOptions o;
  o.trace_only = true;
  const Trial tr = draw(o);
  const std::vector<double> w = *gen::direction(type_size(*tr.t.type));
  const oracle::Denotation d = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
  if (!d.uncertified.empty()) return tr.done(TrialResult::discard(d.uncertified));
  const Options options = oracle::machine_options(context);
  std::optional<std::vector<double>> op;
  std::string failure;
  try {
    const TraceOutcome r = symbolic_derivative(value_term(unflatten(tr.t.type, w)),
                                               value_term(unflatten(tr.t.t, tr.at)), tr.t.x, tr.t.t,
                                               tr.t.term, options);
    op = flatten(evaluate(r.trace, options).value);
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
    failure = e.what();
  }
  if (d.status != oracle::Denotation::Status::defined) {
    if (!op) return tr.done(TrialResult::pass()); // both undefined
    return tr.done(TrialResult::fail("W.R_V(x.C) is defined where [[C]] is not"));
  }
  if (!op) return tr.done(TrialResult::fail("W.R_V(x.C) fails where [[C]] is defined: " + failure));
  return tr.done(oracle::compare_vectors(oracle::model_vjp(tr.t.term, tr.t.x, tr.t.t, tr.at, w),
                                         "model J^T W", *op, "W.R_V(x.C)", CheckKind::derivative,
                                         context));
}

// A real-valued N with x : T, certified at X, and the calculus's gradient 1.rd_X(x:T. N).
struct GradientTrial {
  Trial tr;
  std::optional<TrialResult> early; // discard or fail decided before comparing
  std::vector<double> gradient;
  bool fd_safe = false;
};

GradientTrial gradient_trial(const PropertyContext& context, DiffMode mode = DiffMode::linear,
                             int max_size = 40) {
  gen::TermOptions o;
  o.real_result = true;
  o.max_size = max_size;
  GradientTrial g{draw(o), std::nullopt, {}, false};
  const Trial& tr = g.tr;
  const oracle::Denotation d = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
  g.fd_safe = d.fd_safe;
  if (!d.uncertified.empty()) {
    g.early = tr.done(TrialResult::discard(d.uncertified));
    return g;
  }
  Options options = oracle::machine_options(context);
  options.diff = mode;
  try {
    g.gradient = flatten(gradient(tr.t.x, tr.t.t, tr.t.term, tr.at, options).gradient);
    if (d.status != oracle::Denotation::Status::defined)
      g.early = tr.done(TrialResult::fail("rd is defined where [[N]] is not"));
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel)
      g.early = tr.done(TrialResult::discard("fuel"));
    else if (d.status == oracle::Denotation::Status::defined)
      g.early =
          tr.done(TrialResult::fail(std::string("rd fails where [[N]] is defined: ") + e.what()));
    else
      g.early = tr.done(TrialResult::pass()); // both undefined
  }
  return g;
}

// Thm 6.2(1) for W.rd_V(x:T. N) (spec P-AD-2, P-EQ-13): the calculus's gradient, through
// conditionals, recursion and nested rd, equals the model's J^T 1.
TrialResult rd_matches_model(const PropertyContext& context) {
  const GradientTrial g = gradient_trial(context);
  if (g.early) return *g.early;
  const Trial& tr = g.tr;
  return tr.done(oracle::compare_vectors(oracle::model_vjp(tr.t.term, tr.t.x, tr.t.t, tr.at, {1.0}),
                                         "model gradient", g.gradient, "1.rd_V(x.N)",
                                         CheckKind::derivative, context));
}

// The gradient against finite differences of the operational x ↦ eval(N) (design.md "Three
// oracles"; independent of the model's duals).
TrialResult rd_matches_finite_differences(const PropertyContext& context) {
  const GradientTrial g = gradient_trial(context);
  if (g.early) return *g.early;
  const Trial& tr = g.tr;
  if (!g.fd_safe) return tr.done(TrialResult::discard("near-domain-boundary"));
  const Options options = oracle::machine_options(context);
  const auto f = [&](const Eigen::VectorXd& p) {
    const std::vector<double> at(p.data(), p.data() + p.size());
    const oracle::Operational op = oracle::run(tr.t.term, tr.t.x, tr.t.t, at, options);
    if (!op.value) throw AdsemError(op.error, op.message);
    return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(
        op.value->data(), static_cast<Eigen::Index>(op.value->size())));
  };
  model::FdJacobianEstimate fd;
  try {
    fd = model::fd_jacobian_estimate(f, Eigen::Map<const Eigen::VectorXd>(
                                            tr.at.data(), static_cast<Eigen::Index>(tr.at.size())));
  } catch (const AdsemError& e) {
    return tr.done(TrialResult::discard(discard_reason(e.diagnostic().kind)));
  }
  const Tolerance tol = context.tolerance(CheckKind::finite_difference);
  for (Eigen::Index j = 0; j < fd.error.cols(); ++j)
    if (!(fd.error(0, j) <= tol.rtol * std::abs(fd.jacobian(0, j)) / 2 ||
          fd.error(0, j) <= tol.atol))
      return tr.done(TrialResult::discard("fd-unstable"));
  return tr.done(oracle::compare_vectors(entries(fd.jacobian), "finite differences", g.gradient,
                                         "1.rd_V(x.N)", CheckKind::finite_difference, context));
}

// The gradient lies in the interval enclosure of the Jacobian over the certified box (spec §5.4).
TrialResult rd_in_enclosure(const PropertyContext& context) {
  const GradientTrial g = gradient_trial(context);
  if (g.early) return *g.early;
  const Trial& tr = g.tr;
  if (!g.fd_safe) return tr.done(TrialResult::discard("near-domain-boundary"));
  const model::DiffContext dc;
  try {
    // the certified box (its width covers the rounding of the operational side)
    const auto f = denotation::as_function<model::Interval>(tr.t.x, tr.t.t, tr.t.term, {}, dc);
    const model::Enclosure e =
        model::enclose(f, model::box_around(tr.at, model::fd_stencil_relative_radius()), dc);
    for (std::size_t j = 0; j < g.gradient.size(); ++j)
      if (!model::encloses(e.jacobian(0, j), g.gradient[j]))
        return tr.done(TrialResult::fail(
            fmt::format("rd gives {} for ∂/∂x{}, outside the enclosure {}",
                        print_real(g.gradient[j]), j, model::to_string(e.jacobian(0, j)))));
  } catch (const model::Undecided& e) {
    return tr.done(TrialResult::discard(e.reason()));
  } catch (const AdsemError& e) {
    return tr.done(TrialResult::discard(discard_reason(e.diagnostic().kind)));
  }
  return tr.done(TrialResult::pass());
}

// Fig. 6 applied literally and R-fast (spec §9 P-1(b)) give the same gradient.
TrialResult literal_equals_linear(const PropertyContext& context) {
  const GradientTrial g = gradient_trial(context, DiffMode::literal, 11);
  if (g.early) return *g.early;
  const Trial& tr = g.tr;
  Options options = oracle::machine_options(context);
  try {
    const std::vector<double> fast =
        flatten(gradient(tr.t.x, tr.t.t, tr.t.term, tr.at, options).gradient);
    return tr.done(oracle::compare_vectors(g.gradient, "literal Fig. 6", fast, "R-fast",
                                           CheckKind::derivative, context));
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
    return tr.done(
        TrialResult::fail(std::string("R-fast fails where Fig. 6 succeeds: ") + e.what()));
  }
}

// Evaluates a closed term (domain errors and fuel as an empty result and the kind).
std::optional<std::vector<double>> closed(const TermPtr& m, const Options& options,
                                          ErrorKind& error) {
  try {
    const Typed typed = typecheck(m, primitives());
    return flatten(evaluate(typed.term, options).value);
  } catch (const AdsemError& e) {
    error = e.diagnostic().kind;
    return std::nullopt;
  }
}

// P-EQ-2 (seed 003 eq. 6, line 571; fd defined line 146): t.fd_{U,V}(x:T. N) = J t by the model.
TrialResult fd_equals_forward(const PropertyContext& context) {
  const Trial tr = draw();
  const std::vector<double> tangent = *gen::direction(type_size(*tr.t.t));
  const oracle::Denotation d = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
  if (!d.uncertified.empty()) return tr.done(TrialResult::discard(d.uncertified));
  if (d.status != oracle::Denotation::Status::defined)
    return tr.done(TrialResult::discard("undefined-point"));
  NameSupply names;
  names.avoid_all(*tr.t.term);
  names.avoid(tr.t.x);
  const TermPtr fd =
      fd_of(value_term(unflatten(tr.t.t, tangent)), tr.t.type, value_term(unflatten(tr.t.t, tr.at)),
            tr.t.x, tr.t.t, tr.t.term, names, true);
  ErrorKind error = ErrorKind::eval;
  const auto op = closed(fd, oracle::machine_options(context), error);
  if (!op) {
    if (error == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
    return tr.done(TrialResult::fail("t.fd(x.N) fails where [[N]] is defined"));
  }
  const Eigen::MatrixXd j = model_jacobian(tr.t.term, tr.t.x, tr.t.t, tr.at);
  const Eigen::VectorXd jt = j * Eigen::Map<const Eigen::VectorXd>(
                                     tangent.data(), static_cast<Eigen::Index>(tangent.size()));
  return tr.done(oracle::compare_vectors(std::vector<double>(jt.data(), jt.data() + jt.size()),
                                         "model J t", *op, "t.fd(x.N)", CheckKind::derivative,
                                         context));
}

// P-EQ-3 chain rule (seed 003 eq. 8, line 585):
//   w.rd_V(x:T. let x:S = M in N) = (w.rd_{M[V]}(x:S. N)).rd_V(x:T. M).
TrialResult chain_rule(const PropertyContext& context) {
  const Trial inner = draw(); // N with x : S
  gen::TermOptions o;
  o.result = inner.t.t;
  const Trial outer = draw(o); // M : S with x : T
  const std::vector<double> w = *gen::direction(type_size(*inner.t.type));
  const std::string x = outer.t.x;
  const TermPtr v = value_term(unflatten(outer.t.t, outer.at));
  const TermPtr wt = value_term(unflatten(inner.t.type, w));
  const TermPtr lhs =
      mk::rd(wt, v, x, outer.t.t, mk::let(inner.t.x, inner.t.t, outer.t.term, inner.t.term));
  const TermPtr rhs =
      mk::rd(mk::rd(wt, mk::let(x, outer.t.t, v, outer.t.term), inner.t.x, inner.t.t, inner.t.term),
             v, x, outer.t.t, outer.t.term);
  Trial shown = outer;
  shown.t.term = lhs;
  const Options options = oracle::machine_options(context);
  ErrorKind e1 = ErrorKind::eval, e2 = ErrorKind::eval;
  const auto a = closed(lhs, options, e1);
  const auto b = closed(rhs, options, e2);
  if (!a || !b) {
    if (!a && !b) return shown.done(TrialResult::discard(discard_reason(e1)));
    const ErrorKind e = a ? e2 : e1;
    if (e == ErrorKind::fuel) return shown.done(TrialResult::discard("fuel"));
    const oracle::Denotation d = oracle::denote(lhs, "unused", unit_type(), {});
    if (!d.uncertified.empty()) return shown.done(TrialResult::discard(d.uncertified));
    return shown.done(TrialResult::fail(
        fmt::format("one side of the chain rule is undefined: {}", print_term(a ? rhs : lhs))));
  }
  return shown.done(oracle::compare_vectors(
      *a, "w.rd(x. let x = M in N)", *b, "(w.rd(x. N)).rd(x. M)", CheckKind::derivative, context));
}

// P-EQ-6 linearity in the cotangent (seed 003 line 553):
//   (w1 + w2).rd_V(x.N) = w1.rd_V(x.N) + w2.rd_V(x.N).
TrialResult cotangent_linearity(const PropertyContext& context) {
  const Trial tr = draw();
  const int m = type_size(*tr.t.type);
  const std::vector<double> w1 = *gen::direction(m), w2 = *gen::direction(m);
  std::vector<double> sum(w1.size());
  for (std::size_t i = 0; i < sum.size(); ++i)
    sum[i] = w1[i] + w2[i];
  const Options options = oracle::machine_options(context);
  const TermPtr v = value_term(unflatten(tr.t.t, tr.at));
  const auto rd_with = [&](const std::vector<double>& w, ErrorKind& e) {
    return closed(mk::rd(value_term(unflatten(tr.t.type, w)), v, tr.t.x, tr.t.t, tr.t.term),
                  options, e);
  };
  ErrorKind e = ErrorKind::eval;
  const auto a = rd_with(sum, e), b = rd_with(w1, e), c = rd_with(w2, e);
  if (!a || !b || !c) {
    if (!a && !b && !c) return tr.done(TrialResult::discard(discard_reason(e)));
    if (e == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
    return tr.done(TrialResult::fail("rd is defined for some cotangents only"));
  }
  std::vector<double> added(b->size());
  for (std::size_t i = 0; i < added.size(); ++i)
    added[i] = (*b)[i] + (*c)[i];
  return tr.done(oracle::compare_vectors(added, "w1.rd + w2.rd", *a, "(w1 + w2).rd",
                                         CheckKind::derivative, context));
}

// Spec §9 P-1(b): R-fast's output is linear in its input: |W.R_V(x:T. C)| <= k·(|C| + |V| + |W|)
// for the constant k of the construction (see docs/calculi/simple-diff.md, "Cost").
TrialResult linear_cost(const PropertyContext& context) {
  gen::TermOptions o;
  o.trace_only = true;
  const Trial tr = draw(o);
  const std::vector<double> w = *gen::direction(type_size(*tr.t.type));
  const TermPtr wt = value_term(unflatten(tr.t.type, w)), vt = value_term(unflatten(tr.t.t, tr.at));
  const long input = term_size(*tr.t.term) + term_size(*wt) + term_size(*vt);
  const long output = term_size(
      *symbolic_derivative(wt, vt, tr.t.x, tr.t.t, tr.t.term, oracle::machine_options(context))
           .trace);
  const long bound = context.option_int("cost.factor", 30) * input;
  if (output > bound)
    return tr.done(
        TrialResult::fail(fmt::format("|W.R_V(x.C)| = {} > {} = k·(|C|+|V|+|W|)", output, bound)));
  return tr.done(TrialResult::pass());
}

props::PropertyDef def(std::string name, std::string kind, std::string summary,
                       std::string citation,
                       std::function<TrialResult(const PropertyContext&)> body) {
  return props::PropertyDef{"simple-diff",
                            "simple-diff/" + std::move(name),
                            std::move(kind),
                            std::move(summary),
                            std::move(citation),
                            std::move(body),
                            50};
}

} // namespace

std::vector<props::PropertyDef> properties() {
  return {
      def("unique-typing", "typing", "the elaborated and the printed term re-check to one type",
          "seed 003, Section 2 (line 183); spec P-TY-1", unique_typing),
      def("round-trip", "round-trip", "printing then parsing gives an alpha-equivalent term",
          "spec §2.6", round_trip),
      def("type-preservation", "subject-reduction",
          "values and traces have the term's type; traces are trace terms",
          "seed 003, Prop. 3.6, lines 463-469; spec P-OP-3", type_preservation),
      def("operational-interpolation", "soundness", "eval(M) = eval(C) for M ⇝ C",
          "seed 003, Prop. 3.5, lines 445-451; spec P-OP-2", interpolation),
      def("operational-correctness", "adequacy", "M ⇒ V implies [[M]] = V",
          "seed 003, Thm. 6.2(1), lines 877-883; spec P-AD-2", operational_correctness),
      def("operational-completeness", "adequacy",
          "a defined (certified) [[M]] means M evaluates to it",
          "seed 003, Thm. 6.7, lines 996-1014; spec P-AD-5", operational_completeness),
      def("symbolic-evaluation-correct", "soundness",
          "M ⇝ C gives [[M]] = [[C]] near the point, values and Jacobians",
          "seed 003, Thm. 6.2(2), lines 885-904; spec P-AD-3", symbolic_evaluation_correct),
      def("symbolic-differentiation-correct", "ad-correctness",
          "W.R_V(x:T. C) evaluates to the model's J^T W",
          "seed 003, Thm. 6.1, lines 847-875; spec P-AD-1", symbolic_differentiation_correct),
      def("rd-matches-model", "ad-correctness",
          "1.rd_V(x.N) through if, letrec and nested rd equals the model's gradient",
          "seed 003, Thm. 6.2(1) and Cor. 6.3, lines 877-908; spec P-AD-2, P-EQ-13",
          rd_matches_model),
      def("rd-matches-finite-differences", "ad-correctness",
          "1.rd_V(x.N) equals finite differences of eval",
          "seed 003, Section 5 (d^r, lines 545-553); design.md three oracles",
          rd_matches_finite_differences),
      def("rd-in-interval-enclosure", "ad-correctness",
          "1.rd_V(x.N) lies in the interval enclosure of the Jacobian",
          "spec §5.4 interval certificate", rd_in_enclosure),
      def("literal-equals-linear", "ad-correctness", "Fig. 6 literally and R-fast agree",
          "seed 003, Fig. 6, lines 400-436; spec §9 P-1(b)", literal_equals_linear),
      def("fd-equals-forward-derivative", "ad-correctness",
          "t.fd_{U,V}(x.N) (rd of rd) equals the model's J t",
          "seed 003, eq. 6, line 571 and line 146; spec P-EQ-2", fd_equals_forward),
      def("chain-rule", "ad-correctness", "w.rd(x. let x = M in N) = (w.rd(x. N)).rd(x. M)",
          "seed 003, eq. 8, line 585; spec P-EQ-3", chain_rule),
      def("cotangent-linearity", "ad-correctness", "rd is linear in the cotangent",
          "seed 003, line 553; spec P-EQ-6", cotangent_linearity),
      def("linear-cost", "cost", "R-fast's output size is linear in its input", "spec §9 P-1(b)",
          linear_cost),
  };
}

std::vector<props::MutantDef> mutants() {
  const auto m = [](std::string name, std::string bug, std::string summary,
                    std::vector<std::string> killers) {
    for (std::string& k : killers)
      k = "simple-diff/" + k;
    return props::MutantDef{"simple-diff", "simple-diff/" + std::move(name), std::move(bug),
                            std::move(summary), std::move(killers)};
  };
  return {
      m("product-rule-drops-term", "dropped-term",
        "W.mul_r(D) built as <W * snd(D), 0>: the product rule loses d/dy",
        {"rd-matches-model", "symbolic-differentiation-correct"}),
      m("rd-branch-at-wrong-point", "wrong-branch-derivative",
        "O-rd traces the body at 0.5 - V, so a conditional inside rd takes the wrong branch",
        {"rd-matches-model"}),
      m("letrec-dynamic-scope", "wrong-closure-environment",
        "O-call runs the body in the caller's φ, not the closure's φ'",
        {"operational-correctness", "operational-completeness", "operational-interpolation"}),
      m("op-r-arguments-swapped", "transpose",
        "ev(op_r, <a, w>) computed as ev(op_r, <w, a>) for unary op",
        {"rd-matches-model", "symbolic-differentiation-correct"}),
      m("paper-literal-s-call", "wrong-closure-environment",
        "S-call as printed (seed 003 line 389): the body traced in the caller's φ",
        {"symbolic-evaluation-correct", "rd-matches-model", "operational-interpolation"}),
      m("paper-literal-l-scall", "lost-binding",
        "L-scall as printed (seed 003 line 930): the let x:T = V wrapper is dropped",
        {"operational-interpolation"}),
  };
}

} // namespace adsem::simple_diff
