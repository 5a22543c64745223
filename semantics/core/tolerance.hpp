#pragma once
// The one tolerance policy (design.md "The numeric model"):
//   |a - b| <= max(rtol * (|a| + |b|) / 2, atol)
// with defaults per kind of check. Reports print the tolerances in force.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

namespace adsem {

struct Tolerance {
  double rtol = 1e-9;
  double atol = 1e-12;
};

// Kinds of numeric comparison; each has its own default tolerance.
enum class CheckKind {
  exact_value,       // two evaluations of the same real arithmetic (operational vs model)
  derivative,        // a calculus's AD against the model's exact derivative
  finite_difference, // anything against the finite-difference estimate
  probe,             // extensional comparison of functions / linear maps by probing
};

inline constexpr std::array<CheckKind, 4> all_check_kinds = {
    CheckKind::exact_value, CheckKind::derivative, CheckKind::finite_difference, CheckKind::probe};

std::string_view to_string(CheckKind kind);
std::optional<CheckKind> check_kind_from_string(std::string_view name);

// Defaults, informed by the specs' suggested tolerances (e.g. Manzyuk spec §5.3: 1e-6 relative
// for central differences; exact paths differ only by reassociation, so ~1e-9).
Tolerance default_tolerance(CheckKind kind);

// The policy itself. NaN never compares equal; equal infinities do.
inline bool within_tolerance(double a, double b, Tolerance tol) {
  if (std::isnan(a) || std::isnan(b)) return false;
  if (a == b) return true;
  if (std::isinf(a) || std::isinf(b)) return false;
  const double bound = std::max(tol.rtol * (std::abs(a) + std::abs(b)) / 2.0, tol.atol);
  return std::abs(a - b) <= bound;
}

// How far a and b are apart in units of the allowed error: |a - b| / max(rtol*(|a|+|b|)/2, atol).
// within_tolerance(a, b, tol) iff tolerance_ratio(a, b, tol) <= 1; NaN or a mismatched infinity
// gives +inf. Reports use it as "the worst discrepancy".
inline double tolerance_ratio(double a, double b, Tolerance tol) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::infinity();
  if (a == b) return 0.0;
  if (std::isinf(a) || std::isinf(b)) return std::numeric_limits<double>::infinity();
  const double bound = std::max(tol.rtol * (std::abs(a) + std::abs(b)) / 2.0, tol.atol);
  return std::abs(a - b) / bound;
}

} // namespace adsem
