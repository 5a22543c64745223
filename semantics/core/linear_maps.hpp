#pragma once
// Covectors and linear maps as model function values (bmp §5.3: Lin(w) for R^⊥d; mak-ong §5.3:
// σ* as c ∈ R^n meaning u ↦ c·flat(u)), and the way back: tabulating a linear function value on
// the basis vectors (the n probes φ ↦ φ(e_j) are complete for a linear functional, mak-ong §5.5).
#include "semantics/core/value.hpp"

#include <Eigen/Core>

namespace adsem::model {

// u ↦ Σ_i c_i flatten(u)_i, a real.
template <class C> Value<C> covector(const Eigen::VectorXd& c) {
  return Value<C>::function([c](const Value<C>& u) {
    const std::vector<Dual<C>> xs = flatten(u);
    if (static_cast<Eigen::Index>(xs.size()) != c.size())
      throw AdsemError(ErrorKind::eval, "model: covector applied to a vector of the wrong size");
    Dual<C> acc(0.0);
    for (std::size_t i = 0; i < xs.size(); ++i)
      acc += Dual<C>(c(static_cast<Eigen::Index>(i))) * xs[i];
    return Value<C>(acc);
  });
}

// u ↦ A flatten(u), shaped like `codomain_shape` (a ground value with A.rows() reals).
template <class C> Value<C> linear_map(const Eigen::MatrixXd& a, const Value<C>& codomain_shape) {
  return Value<C>::function([a, codomain_shape](const Value<C>& u) {
    const std::vector<Dual<C>> xs = flatten(u);
    if (static_cast<Eigen::Index>(xs.size()) != a.cols())
      throw AdsemError(ErrorKind::eval, "model: linear map applied to a vector of the wrong size");
    std::vector<Dual<C>> ys;
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      Dual<C> acc(0.0);
      for (std::size_t j = 0; j < xs.size(); ++j)
        acc += Dual<C>(a(i, static_cast<Eigen::Index>(j))) * xs[j];
      ys.push_back(acc);
    }
    return unflatten(codomain_shape, std::span<const Dual<C>>(ys));
  });
}

// The matrix of a linear function value whose arguments are shaped like `domain_shape`: column j
// is flatten(f(e_j)). Exact for linear f; for a nonlinear f it is not a derivative (use
// jacobian.hpp).
Eigen::MatrixXd matrix_of(const Value<double>& f, const Value<double>& domain_shape);
// The coefficients c of a linear functional (its result is a real): c_j = f(e_j).
Eigen::VectorXd covector_coefficients(const Value<double>& f, const Value<double>& domain_shape);

} // namespace adsem::model
