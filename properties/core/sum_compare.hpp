#pragma once
// Sums compared relative to the magnitude of their terms (semantics/core/tolerance.hpp,
// SumWithMagnitude; docs/model.md "Tolerance policy"): linearity checks add values that may cancel
// (f(a) + f(b) against f(a + b)), and rounding errs relative to the summands, not to the sum.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "properties/core/discards.hpp"
#include "properties/core/property.hpp"
#include "semantics/core/tolerance.hpp"

namespace adsem::props {

// One computed number as a sum of one term.
inline SumWithMagnitude term(double x) {
  return {x, std::abs(x)};
}
// The sum of two sums: their terms together.
inline SumWithMagnitude add_terms(const SumWithMagnitude& a, const SumWithMagnitude& b) {
  return {a.value + b.value, a.magnitude + b.magnitude};
}
inline std::vector<SumWithMagnitude> terms(const std::vector<double>& xs) {
  std::vector<SumWithMagnitude> out;
  for (const double x : xs)
    out.push_back(term(x));
  return out;
}

// Component by component; a non-finite expected component (the oracle overflowed) is the counted
// discard `overflow`, as in the calculi's vector comparisons.
inline TrialResult compare_sum_vectors(const std::vector<SumWithMagnitude>& expected,
                                       const std::string& expected_label,
                                       const std::vector<SumWithMagnitude>& actual,
                                       const std::string& actual_label, CheckKind kind,
                                       Tolerance tol) {
  if (expected.size() != actual.size())
    return TrialResult::fail(fmt::format("{} has {} components, {} has {}", expected_label,
                                         expected.size(), actual_label, actual.size()));
  for (const SumWithMagnitude& e : expected)
    if (!std::isfinite(e.value)) return TrialResult::discard(discards::overflow);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    TrialResult r = compare_sums(expected[i], fmt::format("{}[{}]", expected_label, i), actual[i],
                                 fmt::format("{}[{}]", actual_label, i), kind, tol);
    if (r.kind != TrialResult::Kind::pass) return r;
  }
  return TrialResult::pass();
}

// A calculus's gradient (or cᵀJ) against the model's, each component a sum over the chain rule's
// paths whose rounding errs relative to their magnitudes (docs/model.md "Sums"): ∂(x⁴eˣ² −
// eˣ²x⁴)/∂x is exactly 0 in the model's duals while reverse mode sums terms of 10⁸ to a few 10⁻⁹.
// `plain` is the calculus's component-by-component verdict; the sum policy is never stricter, so it
// stands unless it is a failure, and only then are the magnitudes computed (one interval JVP per
// input). Magnitudes that cannot be computed (the interval model throws) leave the plain failure.
inline TrialResult unless_rounding_of_sums(TrialResult plain, const std::vector<double>& expected,
                                           const std::string& expected_label,
                                           const std::vector<double>& actual,
                                           const std::string& actual_label,
                                           const std::function<std::vector<double>()>& magnitudes,
                                           CheckKind kind, Tolerance tol) {
  if (plain.kind != TrialResult::Kind::fail || expected.size() != actual.size()) return plain;
  std::vector<double> m;
  try {
    m = magnitudes();
  } catch (const std::exception&) {
    return plain;
  }
  if (m.size() != expected.size()) return plain;
  std::vector<SumWithMagnitude> e, a;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    e.push_back({expected[i], m[i]});
    a.push_back({actual[i], m[i]});
  }
  return compare_sum_vectors(e, expected_label, a, actual_label, kind, tol);
}

} // namespace adsem::props
