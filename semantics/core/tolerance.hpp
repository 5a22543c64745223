#pragma once
// The one tolerance policy (design.md "The numeric model"):
//   |a - b| <= max(rtol * (|a| + |b|) / 2, atol)
// with defaults per kind of check; for sums, |a| and |b| are the magnitudes of the summed terms
// (SumWithMagnitude below). Reports print the tolerances in force.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
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

// A computed sum with the magnitude of its terms, Σ|t_i| >= |Σ t_i|. Rounding errs relative to
// the terms, not to the result: after cancellation (exp(18)·18/x − exp(18)·18x/x² = 0) the result
// is ~0 but each side may be off by ~u·Σ|t_i| (Higham, "Accuracy and Stability of Numerical
// Algorithms", §3.1: the condition of a dot product is Σ|a_i b_i| / |Σ a_i b_i|).
struct SumWithMagnitude {
  double value = 0;
  double magnitude = 0;
};

// Σ a_i b_i with Σ |a_i b_i|.
inline SumWithMagnitude dot_with_magnitude(std::span<const double> a, std::span<const double> b) {
  SumWithMagnitude out;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    out.value += a[i] * b[i];
    out.magnitude += std::abs(a[i] * b[i]);
  }
  return out;
}

// The policy on sums: |a - b| <= max(rtol * (A + B) / 2, atol), A and B the magnitudes of the
// terms summed (never below |a|, |b|, so a single term is within_tolerance above). NaN never
// compares equal; a non-finite magnitude scales nothing (it would pass every value).
inline double sum_tolerance_bound(const SumWithMagnitude& a, const SumWithMagnitude& b,
                                  Tolerance tol) {
  const auto scale = [](const SumWithMagnitude& s) {
    return std::isfinite(s.magnitude) ? std::max(s.magnitude, std::abs(s.value))
                                      : std::abs(s.value);
  };
  return std::max(tol.rtol * (scale(a) + scale(b)) / 2.0, tol.atol);
}
inline bool within_tolerance(const SumWithMagnitude& a, const SumWithMagnitude& b, Tolerance tol) {
  if (std::isnan(a.value) || std::isnan(b.value)) return false;
  if (a.value == b.value) return true;
  if (std::isinf(a.value) || std::isinf(b.value)) return false;
  return std::abs(a.value - b.value) <= sum_tolerance_bound(a, b, tol);
}

} // namespace adsem
