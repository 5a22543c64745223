#pragma once
// The scalar types a model computation runs on, and what generic code may ask of each:
//   double             plain values
//   Interval           enclosures over a box (interval.hpp)
//   Dual<double>       values with exact derivatives of any order, by tags (dual.hpp)
//   Dual<Interval>     enclosures of values and derivatives over a box
//   AutoDiff           Eigen's first-order forward mode, a cross-check for Jacobians
// Generic code must not compare scalars directly (intervals have no total order, duals compare by
// their tag-free part only): it asks primal_of / certainly_positive.
#include "semantics/core/dual.hpp"
#include "semantics/core/interval.hpp"

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include <type_traits>

namespace adsem::model {

using AutoDiff = Eigen::AutoDiffScalar<Eigen::VectorXd>;

// Base<S>: the type of S's tag-free part (double or Interval).
template <class S> struct ScalarTraits;
template <> struct ScalarTraits<double> {
  using Base = double;
  static const double& primal(const double& x) { return x; }
};
template <> struct ScalarTraits<Interval> {
  using Base = Interval;
  static const Interval& primal(const Interval& x) { return x; }
};
template <class C> struct ScalarTraits<Dual<C>> {
  using Base = C;
  static const C& primal(const Dual<C>& x) { return x.primal(); }
};
template <> struct ScalarTraits<AutoDiff> {
  using Base = double;
  static double primal(const AutoDiff& x) { return x.value(); }
};

template <class S> using Base = typename ScalarTraits<S>::Base;

template <class S> Base<S> primal_of(const S& x) {
  return ScalarTraits<S>::primal(x);
}

// For every point the scalar stands for, is the tag-free part > 0 (< 0)? On a box, "certainly"
// means on the whole box; a straddling box answers false to both.
inline bool certainly_positive(double x) {
  return x > 0;
}
inline bool certainly_positive(const Interval& x) {
  return x.lower() > 0;
}
inline bool certainly_negative(double x) {
  return x < 0;
}
inline bool certainly_negative(const Interval& x) {
  return x.upper() < 0;
}
template <class S>
requires(!std::is_same_v<S, double> &&
         !std::is_same_v<S, Interval>) bool certainly_positive(const S& x) {
  return certainly_positive(primal_of(x));
}
template <class S>
requires(!std::is_same_v<S, double> &&
         !std::is_same_v<S, Interval>) bool certainly_negative(const S& x) {
  return certainly_negative(primal_of(x));
}

} // namespace adsem::model
