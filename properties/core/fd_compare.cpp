#include "properties/core/fd_compare.hpp"

#include <fmt/format.h>

#include "properties/core/discards.hpp"
#include "semantics/core/finite_difference.hpp"

namespace adsem::props {

TrialResult compare_with_estimate(double estimate, double error, std::string estimate_label,
                                  double actual, std::string actual_label, Tolerance tol) {
  switch (model::resolve(estimate, error, actual, tol)) {
  case model::Resolution::agree:
    return TrialResult::pass();
  case model::Resolution::unresolved:
    return TrialResult::discard(discards::fd_unstable);
  case model::Resolution::disagree:
    break;
  }
  TrialResult r = compare_reals(estimate, std::move(estimate_label), actual,
                                std::move(actual_label), CheckKind::finite_difference, tol);
  r.reason += fmt::format(" (beyond the estimate's own error {})", error);
  return r;
}

namespace {

// The first failure, else the last unresolved entry's discard, else pass; `entry(k)` compares
// entry k.
template <class Entry> TrialResult first_verdict(std::size_t count, const Entry& entry) {
  TrialResult outcome = TrialResult::pass();
  for (std::size_t k = 0; k < count; ++k) {
    TrialResult r = entry(k);
    if (r.kind == TrialResult::Kind::fail) return r;
    if (r.kind == TrialResult::Kind::discard) outcome = std::move(r);
  }
  return outcome;
}

} // namespace

TrialResult compare_with_estimates(std::span<const double> estimates,
                                   std::span<const double> errors,
                                   const std::string& estimate_label,
                                   std::span<const double> actual, const std::string& actual_label,
                                   Tolerance tol) {
  if (estimates.size() != actual.size() || errors.size() != actual.size())
    return TrialResult::fail(fmt::format("{} has {} entries but {} has {}", estimate_label,
                                         estimates.size(), actual_label, actual.size()));
  return first_verdict(actual.size(), [&](std::size_t i) {
    return compare_with_estimate(estimates[i], errors[i], fmt::format("{}[{}]", estimate_label, i),
                                 actual[i], fmt::format("{}[{}]", actual_label, i), tol);
  });
}

TrialResult compare_with_estimates(const Eigen::MatrixXd& estimates, const Eigen::MatrixXd& errors,
                                   const std::string& estimate_label, const Eigen::MatrixXd& actual,
                                   const std::string& actual_label, Tolerance tol) {
  if (estimates.rows() != actual.rows() || estimates.cols() != actual.cols() ||
      errors.rows() != actual.rows() || errors.cols() != actual.cols())
    return TrialResult::fail(fmt::format("{} is {}x{} but {} is {}x{}", estimate_label,
                                         estimates.rows(), estimates.cols(), actual_label,
                                         actual.rows(), actual.cols()));
  const auto cols = static_cast<std::size_t>(actual.cols());
  return first_verdict(static_cast<std::size_t>(actual.size()), [&](std::size_t k) {
    const auto i = static_cast<Eigen::Index>(k / cols), j = static_cast<Eigen::Index>(k % cols);
    return compare_with_estimate(estimates(i, j), errors(i, j),
                                 fmt::format("{}[{}][{}]", estimate_label, i, j), actual(i, j),
                                 fmt::format("{}[{}][{}]", actual_label, i, j), tol);
  });
}

} // namespace adsem::props
