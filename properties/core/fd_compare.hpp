#pragma once
// Comparing with the finite-difference oracle, whose estimate carries a bound on its own error
// (semantics/core/finite_difference.hpp, fd_jacobian_estimate). One rule for every property, the
// stability check and the comparison in one (model::resolve): a discrepancy that the estimate
// cannot resolve is the counted discard "fd-unstable", never a failure, and never a pass.
#include <span>
#include <string>

#include <Eigen/Core>

#include "properties/core/property.hpp"

namespace adsem::props {

// pass where `actual` agrees with every value the estimate allows, a failing result (as
// compare_reals, with the estimate's error in the reason) where it agrees with none, otherwise
// the discard "fd-unstable".
TrialResult compare_with_estimate(double estimate, double error, std::string estimate_label,
                                  double actual, std::string actual_label, Tolerance tol);

// Entry by entry (labels get "[i]"): the first failure if any entry disagrees, else
// "fd-unstable" if any entry is unresolved, else pass.
TrialResult compare_with_estimates(std::span<const double> estimates,
                                   std::span<const double> errors,
                                   const std::string& estimate_label,
                                   std::span<const double> actual, const std::string& actual_label,
                                   Tolerance tol);
// The same for matrices (labels get "[i][j]").
TrialResult compare_with_estimates(const Eigen::MatrixXd& estimates, const Eigen::MatrixXd& errors,
                                   const std::string& estimate_label, const Eigen::MatrixXd& actual,
                                   const std::string& actual_label, Tolerance tol);

} // namespace adsem::props
