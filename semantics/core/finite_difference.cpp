#include "semantics/core/finite_difference.hpp"

#include <limits>

#include <algorithm>
#include <cmath>

namespace adsem::model {

double fd_relative_step() {
  static const double step = std::pow(std::numeric_limits<double>::epsilon(), 1.0 / 7.0);
  return step;
}

double fd_step(double x) {
  return fd_relative_step() * std::max(1.0, std::abs(x));
}

double fd_stencil_relative_radius() {
  return 3.0 * fd_relative_step();
}

double fd_derivative(const std::function<double(double)>& f, double x, std::optional<double> step) {
  const double h = step.value_or(fd_step(x));
  double sum = 0;
  for (std::size_t k = 0; k < fd_weights.size(); ++k) {
    const double offset = static_cast<double>(k + 1) * h;
    sum += fd_weights[k] * (f(x + offset) - f(x - offset));
  }
  return sum / h;
}

Eigen::VectorXd fd_directional(const RealVectorFunction& f, const Eigen::VectorXd& x,
                               const Eigen::VectorXd& v, std::optional<double> step) {
  const double scale = x.size() == 0 ? 1.0 : std::max(1.0, x.cwiseAbs().maxCoeff());
  const double direction = v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff();
  if (direction == 0) return Eigen::VectorXd::Zero(f(x).size());
  const double h = step.value_or(fd_relative_step() * scale / direction);
  Eigen::VectorXd sum;
  for (std::size_t k = 0; k < fd_weights.size(); ++k) {
    const double offset = static_cast<double>(k + 1) * h;
    const Eigen::VectorXd term = fd_weights[k] * (f(x + offset * v) - f(x - offset * v));
    sum = k == 0 ? term : Eigen::VectorXd(sum + term);
  }
  return sum / h;
}

Eigen::MatrixXd fd_jacobian(const RealVectorFunction& f, const Eigen::VectorXd& x) {
  Eigen::MatrixXd out;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const Eigen::VectorXd unit = Eigen::VectorXd::Unit(x.size(), j);
    // Along e_j the step fd_step(x_j) scales with that coordinate only.
    const Eigen::VectorXd column = fd_directional(f, x, unit, fd_step(x(j)));
    if (j == 0) out.resize(column.size(), x.size());
    out.col(j) = column;
  }
  return out;
}

FdJacobianEstimate fd_jacobian_estimate(const RealVectorFunction& f, const Eigen::VectorXd& x) {
  FdJacobianEstimate out;
  out.jacobian = fd_jacobian(f, x);
  out.error.resize(out.jacobian.rows(), out.jacobian.cols());
  const Eigen::VectorXd size = f(x).cwiseAbs();
  const double eps = std::numeric_limits<double>::epsilon();
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const Eigen::VectorXd unit = Eigen::VectorXd::Unit(x.size(), j);
    const double h = fd_step(x(j));
    const Eigen::VectorXd half = fd_directional(f, x, unit, h / 2);
    const Eigen::VectorXd quarter = fd_directional(f, x, unit, h / 4);
    // Rounding: each f value carries about eps·|f|, the weights sum to 1.8/h in absolute value.
    const Eigen::VectorXd rounding = (2.0 * eps / h) * size;
    for (Eigen::Index i = 0; i < size.size(); ++i) {
      const double coarse = std::abs(out.jacobian(i, j) - half(i));
      const double fine = std::abs(half(i) - quarter(i));
      // What rounding alone can make of a difference (J(h/2) and J(h/4) carry 2 and 4 times the
      // rounding of J(h); 32 allows f an error of a few ulps).
      const double noise = 32.0 * rounding(i);
      // The regime, seen from the two pairs: the finer about 1/64 of the coarser (between 1/256
      // and 1/16), or both at the rounding level. Otherwise (a pole near, an oscillation the step
      // aliases, a ratio met by chance) the differences bound nothing: no bound.
      const bool in_regime = fine <= coarse / 16.0 + noise && coarse <= 256.0 * (fine + noise);
      out.error(i, j) =
          in_regime ? 2.0 * std::max(coarse, 64.0 * std::max(0.0, fine - noise)) + rounding(i)
                    : std::numeric_limits<double>::infinity();
    }
  }
  return out;
}

FdDerivativeEstimate fd_derivative_estimate(const std::function<double(double)>& f, double x) {
  const RealVectorFunction lifted = [&](const Eigen::VectorXd& y) {
    return Eigen::VectorXd::Constant(1, f(y(0)));
  };
  const FdJacobianEstimate e = fd_jacobian_estimate(lifted, Eigen::VectorXd::Constant(1, x));
  return {e.jacobian(0, 0), e.error(0, 0)};
}

Resolution resolve(double estimate, double error, double value, Tolerance tol) {
  if (!std::isfinite(estimate) || !std::isfinite(error)) return Resolution::unresolved;
  if (!std::isfinite(value)) return Resolution::disagree;
  const double bound = std::max(tol.rtol * (std::abs(estimate) + std::abs(value)) / 2.0, tol.atol);
  // An estimate less precise than the tolerance resolves nothing at it, whatever the gap: a
  // verdict needs error <= bound, and <= the bound at the estimate's own size (a huge value must
  // not lend a noisy estimate its tolerance); beyond that, a bound fooled by chance could fail a
  // right value.
  const double own = std::max(tol.rtol * std::abs(estimate), tol.atol);
  if (error > std::min(bound, own)) return Resolution::unresolved;
  const double gap = std::abs(estimate - value);
  if (gap + error <= bound) return Resolution::agree;
  if (gap - error > bound) return Resolution::disagree;
  return Resolution::unresolved;
}

Eigen::VectorXd fd_gradient(const std::function<double(const Eigen::VectorXd&)>& f,
                            const Eigen::VectorXd& x) {
  const RealVectorFunction lifted = [&](const Eigen::VectorXd& y) {
    return Eigen::VectorXd::Constant(1, f(y));
  };
  return fd_jacobian(lifted, x).row(0).transpose();
}

namespace {

double largest_real(const Value<double>& v) {
  try {
    double largest = 0;
    for (const Dual<double>& x : flatten(v))
      largest = std::max(largest, std::abs(x.primal()));
    return largest;
  } catch (const AdsemError&) {
    return 1.0; // not ground: no scale to read off
  }
}

} // namespace

Value<double> fd_tangent(const Value<double>& f, const Value<double>& point,
                         const Value<double>& tangent, std::optional<double> step) {
  const double h = step.value_or(fd_step(largest_real(point)));
  std::optional<Value<double>> sum;
  for (std::size_t k = 0; k < fd_weights.size(); ++k) {
    const double offset = static_cast<double>(k + 1) * h;
    const Value<double> ahead = f(model::sum(point, scale(Dual<double>(offset), tangent)));
    const Value<double> behind = f(model::sum(point, scale(Dual<double>(-offset), tangent)));
    const Value<double> term = scale(Dual<double>(fd_weights[k] / h), difference(ahead, behind));
    sum = sum ? model::sum(*sum, term) : term;
  }
  return *sum;
}

} // namespace adsem::model
