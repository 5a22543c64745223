#include "semantics/core/linear_maps.hpp"

namespace adsem::model {

Eigen::MatrixXd matrix_of(const Value<double>& f, const Value<double>& domain_shape) {
  const std::size_t n = flatten(domain_shape).size();
  Eigen::MatrixXd out;
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<Dual<double>> basis(n, Dual<double>(0.0));
    basis[j] = Dual<double>(1.0);
    const std::vector<double> column =
        flatten_primal(f(unflatten(domain_shape, std::span<const Dual<double>>(basis))));
    if (j == 0) out.resize(static_cast<Eigen::Index>(column.size()), static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < column.size(); ++i)
      out(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = column[i];
  }
  return out;
}

Eigen::VectorXd covector_coefficients(const Value<double>& f, const Value<double>& domain_shape) {
  const Eigen::MatrixXd m = matrix_of(f, domain_shape);
  if (m.rows() != 1)
    throw AdsemError(ErrorKind::eval, "model: a covector's result must be one real");
  return m.row(0).transpose();
}

} // namespace adsem::model
