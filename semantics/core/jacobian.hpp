#pragma once
// Exact derivatives of model functions R^n -> R^m (design.md "Three oracles": the model's exact
// derivative). Column j of the Jacobian is the ε-coefficient of f(x + e_j ε) with a fresh tag ε
// (manzyuk §5.3 first-order special case; abadi-plotkin §5.4 option A), so the functions may
// themselves contain derivative operators without perturbation confusion.
//
//   jacobian(f, x)            Eigen::MatrixXd, m x n
//   gradient(f, x)            m = 1
//   jvp(f, x, v) = J v        one evaluation
//   vjp(f, x, w) = Jᵀ w       n evaluations (abadi-plotkin §5.4 recipe for rd)
//   hessian(f, x), derivatives(f, x, k): second and higher order, from several tags at once
//   jacobian_autodiff(f, x)   Eigen::AutoDiffScalar, an independent first-order cross-check
// The *_dual variants take and return Dual<C> numbers and keep outer perturbations, for nested
// derivative operators (e.g. AP's rd inside rd) and for C = Interval (enclosures).
#include "semantics/core/dual.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/scalar.hpp"
#include "semantics/core/tags.hpp"
#include "semantics/core/value.hpp"

#include <Eigen/Core>

#include <cmath>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace adsem::model {

// A model function R^n -> R^m on one scalar type.
template <class S> using VectorFunction = std::function<std::vector<S>(std::span<const S>)>;
// A function of one real.
template <class S> using ScalarFunction = std::function<S(const S&)>;

// A primitive as a VectorFunction (domain checked on every call).
template <class S> VectorFunction<S> as_vector_function(const Primitive& primitive) {
  return [primitive](std::span<const S> x) { return primitive.apply<S>(x); };
}

// ---- generic, keeping outer perturbations ----

// x + v ε_e coordinatewise, appended to out (the perturbed point of a JVP).
template <class C, class Out>
void perturb_along(std::span<const Dual<C>> x, std::span<const Dual<C>> v, Tag e, Out& out) {
  const Dual<C> epsilon = Dual<C>::perturbation(C(0.0), e, C(1.0));
  for (std::size_t i = 0; i < x.size(); ++i)
    out.push_back(x[i] + v[i] * epsilon);
}

// J v at x: the ε-coefficients of f(x + v ε), one fresh tag. F: a VectorFunction<Dual<C>>, or
// any callable of the same shape (called directly, not through a std::function per level of a
// nested reverse derivative).
template <class C, class F>
std::vector<Dual<C>> jvp_dual(const F& f, std::span<const Dual<C>> x, std::span<const Dual<C>> v,
                              const DiffContext& context) {
  const Tag e = context.fresh_tag();
  std::vector<Dual<C>> perturbed;
  perturb_along<C>(x, v, e, perturbed);
  std::vector<Dual<C>> out;
  for (const Dual<C>& y : f(perturbed))
    out.push_back(tangent_part(y, e));
  return out;
}

// jvp_dual of a primitive entry, applied in place: its few arguments and results stay inside
// (a VectorFunction around the entry cost an allocation per call and per vector).
template <class C>
Results<Dual<C>> primitive_jvp(const Primitive& primitive, std::span<const Dual<C>> x,
                               std::span<const Dual<C>> v, const DiffContext& context) {
  const Tag e = context.fresh_tag();
  ArgumentBuffer<Dual<C>> perturbed;
  perturb_along<C>(x, v, e, perturbed);
  Results<Dual<C>> out =
      primitive.results<Dual<C>>(Args<Dual<C>>(perturbed.data(), perturbed.size()));
  for (Dual<C>& y : out)
    y = tangent_part(y, e);
  return out;
}

// Whether z + x is x itself, bit for bit: z the constant +0.0 and C = double, where x + 0.0
// changes a coefficient only if it is -0.0 (to +0.0). Then the sum, which embeds both over the
// union of their tags and trims the result, can be skipped. On intervals: never assumed.
template <class C> bool adds_nothing(const Dual<C>& z, const Dual<C>& x) {
  if constexpr (std::is_same_v<C, double>) {
    if (!z.is_constant() || z.primal() != 0.0 || std::signbit(z.primal())) return false;
    for (const double c : x.coefficients())
      if (c == 0.0 && std::signbit(c)) return false;
    return true;
  } else {
    return false;
  }
}

// x + e_j ε_e coordinatewise, appended to out: perturb_along with v the unit vector e_j. The
// products 0·ε and 1·ε are the same at every coordinate, so each is made once per column, and
// x_i + 0·ε is x_i wherever adds_nothing says so.
template <class C, class Out>
void perturb_column(std::span<const Dual<C>> x, std::size_t j, Tag e, Out& out) {
  const Dual<C> epsilon = Dual<C>::perturbation(C(0.0), e, C(1.0));
  // On doubles the products are made directly: 0·ε is the constant +0 (0·0 and 0·1 are +0, and
  // a tag whose coefficients are all zero is dropped), 1·ε is ε itself (1·0 and 1·1).
  constexpr bool exact = std::is_same_v<C, double>;
  const Dual<C> off = exact ? Dual<C>() : Dual<C>(0.0) * epsilon;
  const Dual<C> product = exact ? Dual<C>() : Dual<C>(1.0) * epsilon;
  const Dual<C>& on = exact ? epsilon : product;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Dual<C>& step = i == j ? on : off;
    if (adds_nothing(step, x[i])) {
      out.push_back(x[i]);
    } else if (x[i].is_constant() && step.tags().size() == 1) {
      // x_i + step for a constant x_i (op_r's point, most of them), made as the sum makes it:
      // x_i embedded over step's one tag as {x_i, 0}, then step's coefficients added one by
      // one; without the union of the tag lists and the embedding of both (most of a column)
      typename Dual<C>::Coefficients sum{x[i].primal(), C(0.0)};
      sum[0] += step.coefficients()[0];
      sum[1] += step.coefficients()[1];
      out.push_back(Dual<C>::from_parts(step.tags(), std::move(sum)));
    } else {
      out.push_back(x[i] + step);
    }
  }
}

// Column j of J at x (fresh tag per column).
template <class C, class F>
std::vector<Dual<C>> jacobian_column_dual(const F& f, std::span<const Dual<C>> x, std::size_t j,
                                          const DiffContext& context) {
  if (j >= x.size())
    throw std::out_of_range("jacobian_column_dual: no column " + std::to_string(j));
  const Tag e = context.fresh_tag();
  std::vector<Dual<C>> perturbed;
  perturbed.reserve(x.size());
  perturb_column<C>(x, j, e, perturbed);
  std::vector<Dual<C>> out;
  for (const Dual<C>& y : f(std::span<const Dual<C>>(perturbed)))
    out.push_back(tangent_part(y, e));
  return out;
}

// Σ_i w_i (ε_e-coefficient of y_i): one entry of Jᵀ w from the values y = f(x + e_j ε_e).
template <class C, class Values>
Dual<C> weighted_tangent(const Values& y, std::span<const Dual<C>> w, Tag e) {
  if (y.size() != w.size())
    throw AdsemError(ErrorKind::eval, "model: cotangent has the wrong dimension");
  Dual<C> acc(0.0);
  for (std::size_t i = 0; i < w.size(); ++i) {
    Dual<C> term = w[i] * tangent_part(y[i], e);
    if (adds_nothing(acc, term))
      acc = std::move(term);
    else
      acc += term;
  }
  return acc;
}

// Jᵀ w at x appended to out: out_j = Σ_i w_i J_ij, column by column (abadi-plotkin §5.4 "rd").
// F returns any sized range of Dual<C> (a std::vector, or the inline results of a primitive);
// the perturbed point's room is reused from column to column.
template <class C, class F, class Out>
void vjp_into(const F& f, std::span<const Dual<C>> x, std::span<const Dual<C>> w,
              const DiffContext& context, Out& out) {
  Out perturbed;
  perturbed.reserve(x.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    const Tag e = context.fresh_tag();
    perturbed.clear();
    perturb_column<C>(x, j, e, perturbed);
    out.push_back(
        weighted_tangent<C>(f(std::span<const Dual<C>>(perturbed.data(), perturbed.size())), w, e));
  }
}

// Jᵀ w at x as a vector.
template <class C, class F>
std::vector<Dual<C>> vjp_dual(const F& f, std::span<const Dual<C>> x, std::span<const Dual<C>> w,
                              const DiffContext& context) {
  std::vector<Dual<C>> out;
  out.reserve(x.size());
  vjp_into<C>(f, x, w, context, out);
  return out;
}

// ---- at a point, as Eigen matrices ----

Eigen::MatrixXd jacobian(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                         const DiffContext& context = DiffContext());
Eigen::VectorXd gradient(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                         const DiffContext& context = DiffContext());
Eigen::VectorXd jvp(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                    const Eigen::VectorXd& v, const DiffContext& context = DiffContext());
Eigen::VectorXd vjp(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                    const Eigen::VectorXd& w, const DiffContext& context = DiffContext());
// Second derivatives of an R^n -> R function: H_ij = coefficient of ε_a ε_b in
// f(x + e_i ε_a + e_j ε_b).
Eigen::MatrixXd hessian(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                        const DiffContext& context = DiffContext());
// f(x), f'(x), ..., f^(order)(x): f^(k) is the coefficient of ε_1...ε_k in f(x + ε_1 + ... +
// ε_order).
std::vector<double> derivatives(const ScalarFunction<Dual<double>>& f, double x, int order,
                                const DiffContext& context = DiffContext());

// The Jacobian of a model function value f between ground types, at a ground point (its shape
// gives the input layout; inputs and outputs flatten left to right, krawiec §5.3).
Eigen::MatrixXd jacobian(const Value<double>& f, const Value<double>& point,
                         const DiffContext& context = DiffContext());

// First order through Eigen's AutoDiffScalar (independent of the tagged duals).
Eigen::MatrixXd jacobian_autodiff(const VectorFunction<AutoDiff>& f, const Eigen::VectorXd& x);

} // namespace adsem::model
