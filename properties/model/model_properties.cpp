// The shared numeric model checked against itself: its exact derivatives (tagged duals), Eigen's
// AutoDiff, finite differences and interval enclosures must agree on random primitive
// expressions, and nested derivatives must not confuse perturbations. Every calculus is compared
// against this model, so its oracles come first. The mutants are the model's own bug classes.
#include "properties/model/model_properties.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/primitive_expr.hpp"
#include "properties/core/fd_compare.hpp"
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/pushforward.hpp"

namespace adsem::props {
namespace {

using gen::PrimExpr;
using model::Dual;
using D = Dual<double>;

constexpr const char* untagged_mutant = "model/untagged-dual";
constexpr const char* no_swap_mutant = "model/fresh-tag-no-swap";
constexpr const char* transposed_mutant = "model/jacobian-transposed";
constexpr const char* midpoint_mutant = "model/enclosure-at-midpoint";

model::DiffContext context_for(const PropertyContext& context) {
  if (context.mutant_is(untagged_mutant))
    return model::DiffContext(model::PerturbationMode::untagged);
  if (context.mutant_is(no_swap_mutant))
    return model::DiffContext(model::PerturbationMode::fresh_tag_no_swap);
  return model::DiffContext();
}

// Points on a grid of step 0.01 in [-3, 3]: exact grid points can hit domain boundaries
// (log 0, x / 0), which must be discarded and counted, never passed.
rc::Gen<std::vector<double>> point(int dimension) {
  return rc::gen::container<std::vector<double>>(
      static_cast<std::size_t>(dimension),
      rc::gen::map(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(-300, 301)),
                   [](int k) { return k / 100.0; }));
}

std::string point_text(const std::vector<double>& x) {
  std::string out;
  for (const double v : x)
    out += (out.empty() ? "" : ", ") + fmt::format("{}", v);
  return "(" + out + ")";
}

std::vector<std::string> tags_of(const std::vector<PrimExpr>& exprs) {
  std::vector<std::string> tags;
  for (const auto& e : exprs)
    for (auto& p : gen::primitives_used(e))
      if (std::find(tags.begin(), tags.end(), p) == tags.end()) tags.push_back(std::move(p));
  return tags;
}

int size_of_all(const std::vector<PrimExpr>& exprs) {
  int n = 0;
  for (const auto& e : exprs)
    n += gen::size_of(e);
  return n;
}

// f: R^n -> R^m from m expressions, on any scalar.
template <class S> model::VectorFunction<S> vector_function(std::vector<PrimExpr> exprs) {
  return [exprs = std::move(exprs)](std::span<const S> x) {
    std::vector<S> out;
    for (const auto& e : exprs)
      out.push_back(gen::evaluate<S>(e, x));
    return out;
  };
}

// Certifies a box around x (abadi-plotkin spec §5.4): a discard reason, or "" when the whole
// finite-difference stencil lies inside every primitive domain.
std::string certification_failure(const std::vector<PrimExpr>& exprs,
                                  const std::vector<double>& x) {
  const auto on_box = vector_function<Dual<model::Interval>>(exprs);
  const auto certificate = model::certify(x, [&](const model::Box& box) {
    const auto duals = model::as_duals(box);
    on_box(duals);
  });
  switch (certificate.status) {
  case model::CertificateStatus::certified:
    // A box shrunk below the first one no longer holds the finite-difference stencil.
    return certificate.shrinks == 0 ? "" : "near-domain-boundary";
  case model::CertificateStatus::outside:
    return "undefined-point";
  case model::CertificateStatus::uncertified:
    return "domain-boundary";
  }
  return "domain-boundary";
}

TrialResult compare_matrices(const Eigen::MatrixXd& expected, const std::string& expected_label,
                             const Eigen::MatrixXd& actual, const std::string& actual_label,
                             CheckKind kind, Tolerance tol) {
  for (Eigen::Index i = 0; i < expected.rows(); ++i)
    for (Eigen::Index j = 0; j < expected.cols(); ++j) {
      auto r =
          compare_reals(expected(i, j), fmt::format("{} J[{}][{}]", expected_label, i, j),
                        actual(i, j), fmt::format("{} J[{}][{}]", actual_label, i, j), kind, tol);
      if (r.kind != TrialResult::Kind::pass) return r;
    }
  return TrialResult::pass();
}

// model/jacobian-matches-finite-differences
TrialResult jacobian_vs_oracles(const PropertyContext& context) {
  const std::vector<PrimExpr> exprs = {*gen::prim_expr(2), *gen::prim_expr(2)};
  const std::vector<double> x = *point(2);
  const std::string term = fmt::format("({}, {}) at {}", gen::to_string(exprs[0]),
                                       gen::to_string(exprs[1]), point_text(x));
  const auto tag = [&](TrialResult r) {
    r.on(term, "R^2 -> R^2", size_of_all(exprs), tags_of(exprs));
    return r;
  };
  if (const auto why = certification_failure(exprs, x); !why.empty())
    return tag(TrialResult::discard(why));

  const Eigen::VectorXd at = Eigen::Map<const Eigen::VectorXd>(x.data(), 2);
  Eigen::MatrixXd exact = model::jacobian(vector_function<D>(exprs), at, context_for(context));
  if (context.mutant_is(transposed_mutant)) exact.transposeInPlace(); // the J-versus-Jᵀ bug
  if (!exact.allFinite()) return tag(TrialResult::discard("overflow"));
  const auto on_reals = vector_function<double>(exprs);
  const auto fd = model::fd_jacobian_estimate(
      [&](const Eigen::VectorXd& p) {
        const std::vector<double> out = on_reals(std::span<const double>(p.data(), p.size()));
        return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(out.data(), out.size()));
      },
      at);
  auto r =
      props::compare_with_estimates(fd.jacobian, fd.error, "finite differences J", exact, "model J",
                                    context.tolerance(CheckKind::finite_difference));
  if (r.kind != TrialResult::Kind::pass) return tag(r);
  // Where the rigorous enclosure of J at the point itself is wider than the tolerance, rounding
  // alone (cancellation, as in exp(16 · x/x)) can separate two correct evaluation orders: no
  // verdict at this tolerance.
  const Tolerance derivative_tolerance = context.tolerance(CheckKind::derivative);
  const auto at_point =
      model::enclose(vector_function<Dual<model::Interval>>(exprs), model::point_box(x));
  for (std::size_t i = 0; i < at_point.jacobian.rows; ++i)
    for (std::size_t j = 0; j < at_point.jacobian.cols; ++j) {
      const model::Interval& entry = at_point.jacobian(i, j);
      const double magnitude = std::max(std::abs(entry.lower()), std::abs(entry.upper()));
      if (entry.upper() - entry.lower() >
          std::max(derivative_tolerance.rtol * magnitude, derivative_tolerance.atol))
        return tag(TrialResult::discard("ill-conditioned"));
    }
  const Eigen::MatrixXd autodiff =
      model::jacobian_autodiff(vector_function<model::AutoDiff>(exprs), at);
  return tag(compare_matrices(autodiff, "Eigen AutoDiff", exact, "model", CheckKind::derivative,
                              derivative_tolerance));
}

// model/interval-encloses-value-and-derivative
TrialResult enclosure_contains_samples(const PropertyContext& context) {
  const PrimExpr e = *gen::prim_expr(2);
  const std::vector<double> x = *point(2);
  const double radius = 1e-2;
  const std::vector<int> sample_steps = *rc::gen::container<std::vector<int>>(
      4, rc::gen::resize(rc::kNominalSize, rc::gen::inRange(-100, 101))); // two sample points, as
                                                                          // fractions of the radius
  const std::string term =
      fmt::format("{} on the box {} ± {}·max(1,|x|)", gen::to_string(e), point_text(x), radius);
  const auto tag = [&](TrialResult r) {
    r.on(term, "R^2 -> R", gen::size_of(e), gen::primitives_used(e));
    return r;
  };
  const model::Box box = model::box_around(x, radius);
  // The mutant encloses f only at the box's midpoint, a classic interval bug.
  const model::Box evaluated = context.mutant_is(midpoint_mutant) ? model::point_box(x) : box;
  model::Enclosure enclosure;
  try {
    enclosure = model::enclose(vector_function<Dual<model::Interval>>({e}), evaluated);
  } catch (const model::Undecided& u) {
    return tag(TrialResult::discard(u.reason()));
  } catch (const model::Undefined&) {
    return tag(TrialResult::discard("undefined-point"));
  }
  for (int s = 0; s < 2; ++s) {
    std::vector<double> y = x;
    for (int i = 0; i < 2; ++i)
      y[i] = x[i] + radius * std::max(1.0, std::abs(x[i])) * sample_steps[2 * s + i] / 100.0;
    if (!model::box_contains(box, y)) continue; // rounding at the box edge
    double value = 0;
    Eigen::MatrixXd jacobian;
    try {
      value = gen::evaluate<double>(e, y);
      jacobian =
          model::jacobian(vector_function<D>({e}), Eigen::Map<const Eigen::VectorXd>(y.data(), 2));
    } catch (const model::Undefined&) {
      return tag(TrialResult::fail(fmt::format(
          "the box was certified inside every domain, but f is undefined at {}", point_text(y))));
    }
    // IEEE overflow leaves the reals: such points say nothing about the enclosure.
    if (!std::isfinite(value) || !jacobian.allFinite())
      return tag(TrialResult::discard("overflow"));
    const model::Interval& v = enclosure.value.at(0);
    if (!(v.lower() <= value && value <= v.upper())) {
      TrialResult r = TrialResult::fail(fmt::format("f{} = {} lies outside the enclosure [{}, {}]",
                                                    point_text(y), value, v.lower(), v.upper()));
      r.expected = reports::ComputedValue{"interval enclosure",
                                          fmt::format("[{}, {}]", v.lower(), v.upper())};
      r.actual = reports::ComputedValue{"value at " + point_text(y), fmt::format("{}", value)};
      return tag(r);
    }
    if (!enclosure.jacobian.contains(jacobian))
      return tag(TrialResult::fail(
          fmt::format("the gradient at {} lies outside the Jacobian enclosure", point_text(y))));
  }
  return tag(TrialResult::pass());
}

// model/nested-derivative-no-confusion: F(x) = x · ∂/∂y e(x, y) at y0, differentiated in x with
// nested tags, against finite differences of F (whose inner derivative is exact). Siskind and
// Pearlmutter's perturbation confusion (manzyuk spec §5.3 negative control (a)).
TrialResult nested_derivative(const PropertyContext& context) {
  const PrimExpr e = *gen::prim_expr(2);
  const std::vector<double> x = *point(2);
  const std::string term =
      fmt::format("D(λx. x · D(λy. {})({}))({})", gen::to_string(e, {"x", "y"}), x[1], x[0]);
  const auto tag = [&](TrialResult r) {
    r.on(term, "R", gen::size_of(e), gen::primitives_used(e));
    return r;
  };
  if (const auto why = certification_failure({e}, x); !why.empty())
    return tag(TrialResult::discard(why));
  const model::DiffContext diff = context_for(context);
  const double y0 = x[1];
  // inner(X) = ∂/∂y e(X, y) at y0, on duals that may carry the outer perturbation.
  const auto inner = [&](const D& X) {
    const model::VectorFunction<D> g = [&](std::span<const D> y) {
      const std::vector<D> in = {X, y[0]};
      return std::vector<D>{gen::evaluate<D>(e, std::span<const D>(in))};
    };
    const std::vector<D> at = {D(y0)};
    return model::jacobian_column_dual<double>(g, at, 0, diff).at(0);
  };
  const model::VectorFunction<D> F = [&](std::span<const D> X) {
    return std::vector<D>{X[0] * inner(X[0])};
  };
  double exact = 0;
  model::FdDerivativeEstimate reference;
  try {
    exact = model::gradient(F, Eigen::VectorXd::Constant(1, x[0]), diff)(0);
    reference =
        model::fd_derivative_estimate([&](double t) { return (t * inner(D(t))).primal(); }, x[0]);
  } catch (const model::Undefined&) {
    return tag(TrialResult::discard("undefined-point"));
  }
  if (!std::isfinite(reference.derivative)) return tag(TrialResult::discard("overflow"));
  return tag(props::compare_with_estimate(
      reference.derivative, reference.error, "finite differences of the outer function", exact,
      "nested model derivative", context.tolerance(CheckKind::finite_difference)));
}

// model/function-valued-derivative-no-confusion: with s = λu.λf.λx. f(x + u) and g = ∂s/∂u at 0
// (a function-valued derivative), g (g f) x = f''(x). The manzyuk spec's example M15 with a
// random f; without tag renaming in extract the answer is wrong (negative control (b)).
TrialResult function_valued_derivative(const PropertyContext& context) {
  using V = model::Value<double>;
  const PrimExpr e = *gen::prim_expr(1);
  const double x0 = (*point(1))[0];
  const std::string term = fmt::format("g (g (λx. {})) {} where g = ∂/∂u (λu.λf.λx. f(x+u)) at 0",
                                       gen::to_string(e, {"x"}), x0);
  const auto tag = [&](TrialResult r) {
    r.on(term, "R", gen::size_of(e), gen::primitives_used(e));
    return r;
  };
  if (const auto why = certification_failure({e}, {x0}); !why.empty())
    return tag(TrialResult::discard(why));
  const model::DiffContext diff = context_for(context);
  const V s = V::function([](const V& u) {
    return V::function([u](const V& f) {
      return V::function([u, f](const V& x) { return f(V(x.real() + u.real())); });
    });
  });
  const V f = V::function([e](const V& x) {
    const std::vector<D> in = {x.real()};
    return V(gen::evaluate<D>(e, std::span<const D>(in)));
  });
  double via_g = 0, reference = 0;
  try {
    const V g = model::directional_derivative(s, V(0.0), V(1.0), diff);
    const V result = g(g(f))(V(x0));
    if (!result.real().is_constant())
      return tag(TrialResult::fail("a perturbation tag leaked out of the derivative"));
    via_g = result.real().primal();
    const model::ScalarFunction<D> scalar = [e](const D& x) {
      const std::vector<D> in = {x};
      return gen::evaluate<D>(e, std::span<const D>(in));
    };
    reference = model::derivatives(scalar, x0, 2).at(2);
  } catch (const model::Undefined&) {
    return tag(TrialResult::discard("undefined-point"));
  }
  // IEEE overflow (exp(exp(exp 3)) = inf, cos inf = NaN) leaves the reals: no verdict.
  if (!std::isfinite(reference)) return tag(TrialResult::discard("overflow"));
  return tag(compare_reals(reference, "f''(x) by nested duals", via_g,
                           "g (g f) x by function-valued derivatives", CheckKind::derivative,
                           context.tolerance(CheckKind::derivative)));
}

PropertyDef model_property(std::string name, std::string kind, std::string summary,
                           std::string citation, TrialResult (*body)(const PropertyContext&)) {
  return PropertyDef{
      "model", "model/" + name, std::move(kind), std::move(summary), std::move(citation), body, 40};
}

} // namespace

std::vector<PropertyDef> model_properties() {
  return {
      model_property("jacobian-matches-finite-differences", "oracle-agreement",
                     "the model's exact Jacobian agrees with finite differences and Eigen AutoDiff",
                     "design.md, The numeric model: three oracles", jacobian_vs_oracles),
      model_property("interval-encloses-value-and-derivative", "oracle-agreement",
                     "values and gradients at points of a box lie in the box's enclosure",
                     "abadi-plotkin spec §5.4, interval certificate", enclosure_contains_samples),
      model_property("nested-derivative-no-confusion", "ad-correctness",
                     "nested derivatives use distinct perturbations",
                     "manzyuk spec §5.3 negative control (a); seed 004 L48-55", nested_derivative),
      model_property("function-valued-derivative-no-confusion", "ad-correctness",
                     "derivatives with function results rename tags (M15 with random f)",
                     "manzyuk spec §5.3 extract, §8 M15", function_valued_derivative),
  };
}

std::vector<MutantDef> model_mutants() {
  return {
      {"model",
       untagged_mutant,
       "perturbation-confusion",
       "one ε for every derivative (manzyuk spec §5.3 negative control a)",
       {"model/nested-derivative-no-confusion"}},
      {"model",
       no_swap_mutant,
       "perturbation-confusion",
       "fresh tags but no renaming of function-valued results (negative control b)",
       {"model/function-valued-derivative-no-confusion"}},
      {"model",
       transposed_mutant,
       "transpose",
       "the Jacobian is returned transposed (J instead of Jᵀ)",
       {"model/jacobian-matches-finite-differences"}},
      {"model",
       midpoint_mutant,
       "interval-at-point",
       "the enclosure is computed at the box's midpoint only",
       {"model/interval-encloses-value-and-derivative"}},
  };
}

} // namespace adsem::props
