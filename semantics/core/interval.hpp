#pragma once
// Interval scalars for enclosures over boxes (design.md "The numeric model": the interval oracle;
// abadi-plotkin spec §5.4 "interval certificate").
//
// Interval = boost::numeric::interval<double> with the rounding policy `OutwardRounding` below.
//
// Why not Boost's rounded_arith_std / rounded_transc_std: they switch the FPU rounding mode, which
// GCC does not honour without -frounding-math (it may fold or move operations across the switch),
// and libm is not specified under directed rounding. So every operation here runs in
// round-to-nearest and is then moved outward:
//  - + - * / sqrt: the nearest result is stepped one ulp outward, unless an error-free
//    transformation (TwoSum, the FMA residual) shows it is exact or already on the safe side. Exact
//    arithmetic (1 + 1, 0 * x) therefore gives a point interval.
//  - exp log sin cos tan tanh (the whole transcendental family Boost asks for): libm's result is
//    widened by `libm_ulps` = 4 ulps each way (glibc documents at most 2 ulps for these on x86-64),
//    then clamped to the function's range; exp(0), cos(0), sin(0), tanh(0), log(1) are exact.
// Consequence: every Interval operation encloses the exact real result, with no rounding-mode
// changes, so enclosures are rigorous up to the documented libm accuracy.
//
// Comparisons: Boost's default operator< on intervals throws when the answer is uncertain. Model
// code uses lower()/upper() (or the helpers below) instead of comparison operators.
#include <boost/numeric/interval.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "semantics/core/tolerance.hpp"

namespace adsem::model {

namespace detail {

inline constexpr double infinity = std::numeric_limits<double>::infinity();
inline constexpr double largest = std::numeric_limits<double>::max();
// Below this magnitude an error term (FMA residual) may underflow, so we widen unconditionally.
inline constexpr double residual_floor = 0x1p-960;

inline double next_down(double x) {
  return std::nextafter(x, -infinity);
}
inline double next_up(double x) {
  return std::nextafter(x, infinity);
}

inline double widen_down(double x, int ulps) {
  if (!std::isfinite(x)) return x;
  for (int i = 0; i < ulps; ++i)
    x = next_down(x);
  return x;
}
inline double widen_up(double x, int ulps) {
  if (!std::isfinite(x)) return x;
  for (int i = 0; i < ulps; ++i)
    x = next_up(x);
  return x;
}

// The exact result r of an operation whose nearest rounding is `nearest`, known only through the
// sign of r - nearest (error < 0: r is below nearest).
inline double lower_from(double nearest, double error) {
  return error < 0 ? next_down(nearest) : nearest;
}
inline double upper_from(double nearest, double error) {
  return error > 0 ? next_up(nearest) : nearest;
}

// TwoSum (Knuth): the exact rounding error of s = x + y, valid when s does not overflow.
inline double sum_error(double x, double y, double s) {
  const double yy = s - x;
  return (x - (s - yy)) + (y - yy);
}

} // namespace detail

// Round-to-nearest arithmetic widened outward (see the header comment). Satisfies the interface
// Boost.Interval expects from a rounding policy (rounded_arith_* and rounded_transc_* together).
struct OutwardRounding {
  static constexpr int libm_ulps = 4;

  // Conversions: doubles and small integers are exact; anything else is widened.
  template <class U> double conv_down(const U& v) {
    const double d = static_cast<double>(v);
    return exact_conversion<U>() ? d : detail::next_down(d);
  }
  template <class U> double conv_up(const U& v) {
    const double d = static_cast<double>(v);
    return exact_conversion<U>() ? d : detail::next_up(d);
  }

  double add_down(double x, double y) { return add(x, y, false); }
  double add_up(double x, double y) { return add(x, y, true); }
  double sub_down(double x, double y) { return add(x, -y, false); }
  double sub_up(double x, double y) { return add(x, -y, true); }
  double mul_down(double x, double y) { return mul(x, y, false); }
  double mul_up(double x, double y) { return mul(x, y, true); }
  double div_down(double x, double y) { return div(x, y, false); }
  double div_up(double x, double y) { return div(x, y, true); }
  double sqrt_down(double x) { return root(x, false); }
  double sqrt_up(double x) { return root(x, true); }
  double median(double x, double y) { return (x + y) / 2; }
  double int_down(double x) { return std::floor(x); }
  double int_up(double x) { return std::ceil(x); }

  // Transcendentals: libm widened by libm_ulps, clamped to the range, exact at trivial points.
  double exp_down(double x) { return x == 0 ? 1.0 : std::max(0.0, down(std::exp(x))); }
  double exp_up(double x) { return x == 0 ? 1.0 : up(std::exp(x)); }
  double log_down(double x) { return x == 1 ? 0.0 : down(std::log(x)); }
  double log_up(double x) { return x == 1 ? 0.0 : up(std::log(x)); }
  double sin_down(double x) { return x == 0 ? 0.0 : std::max(-1.0, down(std::sin(x))); }
  double sin_up(double x) { return x == 0 ? 0.0 : std::min(1.0, up(std::sin(x))); }
  double cos_down(double x) { return x == 0 ? 1.0 : std::max(-1.0, down(std::cos(x))); }
  double cos_up(double x) { return x == 0 ? 1.0 : std::min(1.0, up(std::cos(x))); }
  double tan_down(double x) { return x == 0 ? 0.0 : down(std::tan(x)); }
  double tan_up(double x) { return x == 0 ? 0.0 : up(std::tan(x)); }
  double asin_down(double x) { return x == 0 ? 0.0 : down(std::asin(x)); }
  double asin_up(double x) { return x == 0 ? 0.0 : up(std::asin(x)); }
  double acos_down(double x) { return x == 1 ? 0.0 : std::max(0.0, down(std::acos(x))); }
  double acos_up(double x) { return x == 1 ? 0.0 : up(std::acos(x)); }
  double atan_down(double x) { return x == 0 ? 0.0 : down(std::atan(x)); }
  double atan_up(double x) { return x == 0 ? 0.0 : up(std::atan(x)); }
  double sinh_down(double x) { return x == 0 ? 0.0 : down(std::sinh(x)); }
  double sinh_up(double x) { return x == 0 ? 0.0 : up(std::sinh(x)); }
  double cosh_down(double x) { return x == 0 ? 1.0 : std::max(1.0, down(std::cosh(x))); }
  double cosh_up(double x) { return x == 0 ? 1.0 : up(std::cosh(x)); }
  double tanh_down(double x) { return x == 0 ? 0.0 : std::max(-1.0, down(std::tanh(x))); }
  double tanh_up(double x) { return x == 0 ? 0.0 : std::min(1.0, up(std::tanh(x))); }
  double asinh_down(double x) { return x == 0 ? 0.0 : down(std::asinh(x)); }
  double asinh_up(double x) { return x == 0 ? 0.0 : up(std::asinh(x)); }
  double acosh_down(double x) { return x == 1 ? 0.0 : std::max(0.0, down(std::acosh(x))); }
  double acosh_up(double x) { return x == 1 ? 0.0 : up(std::acosh(x)); }
  double atanh_down(double x) { return x == 0 ? 0.0 : down(std::atanh(x)); }
  double atanh_up(double x) { return x == 0 ? 0.0 : up(std::atanh(x)); }

private:
  template <class U> static constexpr bool exact_conversion() {
    return std::is_same_v<U, double> || std::is_same_v<U, float> ||
           (std::is_integral_v<U> && sizeof(U) <= 4);
  }
  static double down(double y) { return detail::widen_down(y, libm_ulps); }
  static double up(double y) { return detail::widen_up(y, libm_ulps); }

  static double add(double x, double y, bool upward) {
    const double s = x + y;
    if (!std::isfinite(s)) {
      if (std::isinf(s) && std::isfinite(x) && std::isfinite(y)) // overflow of finite operands
        return upward ? (s > 0 ? s : -detail::largest) : (s > 0 ? detail::largest : s);
      return s;
    }
    const double error = detail::sum_error(x, y, s);
    return upward ? detail::upper_from(s, error) : detail::lower_from(s, error);
  }

  static double mul(double x, double y, bool upward) {
    const double p = x * y;
    if (x == 0 || y == 0) return p;
    if (!std::isfinite(p)) {
      if (std::isinf(p) && std::isfinite(x) && std::isfinite(y))
        return upward ? (p > 0 ? p : -detail::largest) : (p > 0 ? detail::largest : p);
      return p;
    }
    if (std::abs(p) < detail::residual_floor)
      return upward ? detail::next_up(p) : detail::next_down(p);
    const double error = std::fma(x, y, -p); // exact: x*y - p
    return upward ? detail::upper_from(p, error) : detail::lower_from(p, error);
  }

  static double div(double x, double y, bool upward) {
    const double q = x / y;
    if (x == 0 || y == 0 || !std::isfinite(x) || !std::isfinite(y)) return q;
    if (!std::isfinite(q))
      return upward ? (q > 0 ? q : -detail::largest) : (q > 0 ? detail::largest : q);
    if (std::abs(q) < detail::residual_floor || std::abs(x) < detail::residual_floor)
      return upward ? detail::next_up(q) : detail::next_down(q);
    const double remainder = std::fma(-q, y, x);         // exact: x - q*y
    const double error = y > 0 ? remainder : -remainder; // sign of x/y - q
    return upward ? detail::upper_from(q, error) : detail::lower_from(q, error);
  }

  static double root(double x, bool upward) {
    const double s = std::sqrt(x);
    if (!(x > 0) || !std::isfinite(x)) return s;
    if (x < detail::residual_floor) return upward ? detail::next_up(s) : detail::next_down(s);
    const double error = std::fma(-s, s, x); // x - s^2: sign of sqrt(x) - s
    return upward ? detail::upper_from(s, error) : detail::lower_from(s, error);
  }
};

using IntervalPolicies = boost::numeric::interval_lib::policies<
    boost::numeric::interval_lib::save_state_nothing<OutwardRounding>,
    boost::numeric::interval_lib::checking_base<double>>;

// The interval scalar of the model.
using Interval = boost::numeric::interval<double, IntervalPolicies>;

inline Interval point_interval(double x) {
  return Interval(x);
}
inline bool is_exact_zero(const Interval& x) {
  return x.lower() == 0 && x.upper() == 0;
}
inline bool is_exact_zero(double x) {
  return x == 0;
}
inline bool encloses(const Interval& x, double value) {
  return x.lower() <= value && value <= x.upper();
}
// Does `value`, computed in floating point in another order than the enclosure's own evaluation,
// lie in the enclosure x of the exact real it approximates? The enclosure holds the exact value,
// not the rounded one: a constant derivative 1 has the enclosure [1, 1] while a mechanism may
// compute (1 - a) + a = 0.9999999999999999. So x is widened each way by the tolerance policy's
// bound, max(rtol m, atol), for the mechanism's own rounding and nothing else; m is |value| or,
// where the value is a sum (a derivative sums the chain rule's paths), the magnitude of its
// terms when that is larger (docs/model.md, "Sums").
inline bool encloses_rounded(const Interval& x, double value, Tolerance tol, double magnitude = 0) {
  const double m =
      std::isfinite(magnitude) ? std::max(std::abs(value), magnitude) : std::abs(value);
  const double slack = std::max(tol.atol, tol.rtol * m);
  return x.lower() - slack <= value && value <= x.upper() + slack;
}
inline bool is_empty_interval(const Interval& x) {
  return !(x.lower() <= x.upper());
}

// "[lo, hi]" with 17 significant digits, for messages and reports.
std::string to_string(const Interval& x);

} // namespace adsem::model
