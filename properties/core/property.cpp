#include "properties/core/property.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "properties/core/option_keys.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {

TrialResult compare_reals(double expected, std::string expected_label, double actual,
                          std::string actual_label, CheckKind kind, Tolerance tol) {
  if (within_tolerance(expected, actual, tol)) return TrialResult::pass();
  TrialResult r = TrialResult::fail(
      fmt::format("{} = {} but {} = {}", expected_label, expected, actual_label, actual));
  r.expected = reports::ComputedValue{std::move(expected_label), fmt::format("{}", expected)};
  r.actual = reports::ComputedValue{std::move(actual_label), fmt::format("{}", actual)};
  r.discrepancy = std::abs(expected - actual);
  r.tolerance = tol;
  r.tolerance_kind = std::string(to_string(kind));
  return r;
}

TrialResult compare_sums(SumWithMagnitude expected, std::string expected_label,
                         SumWithMagnitude actual, std::string actual_label, CheckKind kind,
                         Tolerance tol) {
  if (within_tolerance(expected, actual, tol)) return TrialResult::pass();
  TrialResult r = compare_reals(expected.value, std::move(expected_label), actual.value,
                                std::move(actual_label), kind, tol);
  r.reason += fmt::format(" (sums of terms of magnitude {} and {}: bound {})", expected.magnitude,
                          actual.magnitude, sum_tolerance_bound(expected, actual, tol));
  return r;
}

namespace {
double parse_real_option(const std::string& key, const std::string& text) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  throw AdsemError(ErrorKind::usage, fmt::format("option {}: '{}' is not a number", key, text));
}

// A key read here must be one that `--set` accepts (option_keys.hpp), or overriding it would be
// refused as unknown: a programming error, caught by any test that runs the property.
Overrides::const_iterator find_option(const Overrides& overrides, const std::string& key) {
  if (!is_known_option_key(key))
    throw std::logic_error(fmt::format("option key '{}' is read but not listed in "
                                       "properties/core/option_keys.cpp",
                                       key));
  return overrides.find(key);
}
} // namespace

Tolerance PropertyContext::tolerance(CheckKind kind) const {
  Tolerance tol = default_tolerance(kind);
  // Nothing overridden (every campaign without --set): the defaults, without building the two
  // keys and looking them up (a comparison's tolerance is read once per trial). The keys are
  // listed for every kind (option_keys.cpp builds them from all_check_kinds), so the check that
  // find_option makes could not fail here.
  if (overrides.empty()) return tol;
  const std::string prefix = "tolerance." + std::string(to_string(kind)) + ".";
  tol.rtol = option_real(prefix + "rtol", tol.rtol);
  tol.atol = option_real(prefix + "atol", tol.atol);
  return tol;
}

long PropertyContext::option_int(const std::string& key, long fallback) const {
  const auto it = find_option(overrides, key);
  if (it == overrides.end()) return fallback;
  const double value = parse_real_option(key, it->second);
  if (value != std::floor(value))
    throw AdsemError(ErrorKind::usage, fmt::format("option {}: expected an integer", key));
  return static_cast<long>(value);
}

double PropertyContext::option_real(const std::string& key, double fallback) const {
  const auto it = find_option(overrides, key);
  return it == overrides.end() ? fallback : parse_real_option(key, it->second);
}

} // namespace adsem::props
