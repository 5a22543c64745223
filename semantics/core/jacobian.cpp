#include "semantics/core/jacobian.hpp"

namespace adsem::model {

namespace {

std::vector<Dual<double>> as_duals(const Eigen::VectorXd& x) {
  return std::vector<Dual<double>>(x.data(), x.data() + x.size());
}

Eigen::VectorXd primal_vector(const std::vector<Dual<double>>& xs) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(xs.size()));
  for (std::size_t i = 0; i < xs.size(); ++i)
    out(static_cast<Eigen::Index>(i)) = xs[i].primal();
  return out;
}

} // namespace

Eigen::MatrixXd jacobian(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                         const DiffContext& context) {
  const std::vector<Dual<double>> point = as_duals(x);
  Eigen::MatrixXd out;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const Eigen::VectorXd column =
        primal_vector(jacobian_column_dual<double>(f, point, static_cast<std::size_t>(j), context));
    if (j == 0) out.resize(column.size(), x.size());
    out.col(j) = column;
  }
  if (x.size() == 0) out.resize(static_cast<Eigen::Index>(f(point).size()), 0);
  return out;
}

Eigen::VectorXd gradient(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                         const DiffContext& context) {
  const Eigen::MatrixXd j = jacobian(f, x, context);
  if (j.rows() != 1)
    throw AdsemError(ErrorKind::eval,
                     "model: gradient of a function with " + std::to_string(j.rows()) + " results");
  return j.row(0).transpose();
}

Eigen::VectorXd jvp(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                    const Eigen::VectorXd& v, const DiffContext& context) {
  return primal_vector(jvp_dual<double>(f, as_duals(x), as_duals(v), context));
}

Eigen::VectorXd vjp(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                    const Eigen::VectorXd& w, const DiffContext& context) {
  return primal_vector(vjp_dual<double>(f, as_duals(x), as_duals(w), context));
}

Eigen::MatrixXd hessian(const VectorFunction<Dual<double>>& f, const Eigen::VectorXd& x,
                        const DiffContext& context) {
  const Eigen::Index n = x.size();
  Eigen::MatrixXd out(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = i; j < n; ++j) {
      const Tag a = context.fresh_tag(), b = context.fresh_tag();
      std::vector<Dual<double>> point = as_duals(x);
      point[static_cast<std::size_t>(i)] += Dual<double>::perturbation(0.0, a, 1.0);
      point[static_cast<std::size_t>(j)] += Dual<double>::perturbation(0.0, b, 1.0);
      const std::vector<Dual<double>> y = f(point);
      if (y.size() != 1) throw AdsemError(ErrorKind::eval, "model: hessian needs one result");
      out(i, j) = out(j, i) = y[0].coefficient({a, b});
    }
  }
  return out;
}

std::vector<double> derivatives(const ScalarFunction<Dual<double>>& f, double x, int order,
                                const DiffContext& context) {
  std::vector<Tag> tags;
  Dual<double> point(x);
  for (int k = 0; k < order; ++k) {
    tags.push_back(context.fresh_tag());
    point += Dual<double>::perturbation(0.0, tags.back(), 1.0);
  }
  const Dual<double> y = f(point);
  std::vector<double> out;
  for (int k = 0; k <= order; ++k)
    out.push_back(y.coefficient(std::span<const Tag>(tags.data(), static_cast<std::size_t>(k))));
  return out;
}

Eigen::MatrixXd jacobian(const Value<double>& f, const Value<double>& point,
                         const DiffContext& context) {
  const std::vector<Dual<double>> xs = flatten(point);
  const VectorFunction<Dual<double>> flat = [&](std::span<const Dual<double>> args) {
    return flatten(f(unflatten(point, args)));
  };
  Eigen::VectorXd x(static_cast<Eigen::Index>(xs.size()));
  for (std::size_t i = 0; i < xs.size(); ++i)
    x(static_cast<Eigen::Index>(i)) = xs[i].primal();
  return jacobian(flat, x, context);
}

Eigen::MatrixXd jacobian_autodiff(const VectorFunction<AutoDiff>& f, const Eigen::VectorXd& x) {
  const Eigen::Index n = x.size();
  std::vector<AutoDiff> args;
  for (Eigen::Index i = 0; i < n; ++i)
    args.emplace_back(x(i), n, i);
  const std::vector<AutoDiff> y = f(args);
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(y.size()), n);
  for (std::size_t r = 0; r < y.size(); ++r)
    if (y[r].derivatives().size() == n) // a constant result has no derivative vector
      out.row(static_cast<Eigen::Index>(r)) = y[r].derivatives().transpose();
  return out;
}

} // namespace adsem::model
