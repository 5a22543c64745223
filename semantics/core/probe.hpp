#pragma once
// Probing (design.md "Hahn–Banach-style probing"; mak-ong §5.5; bmp §5.5; manzyuk §5.3
// "Observations"): values of dual, linear-map and function types are compared through random
// probes, and reports state how many probes were used.
//
//  - random vectors / covectors from a seeded std::mt19937_64 (no global generator);
//  - the dot-product test ⟨u, J v⟩ = ⟨Jᵀ u, v⟩ between a forward map (JVP) and a reverse map
//    (VJP): one JVP and one VJP per probe, no full Jacobian (mak-ong §5.5);
//  - extensional comparison of two model values of a given type: functions are applied to k
//    random arguments of their domain type and the results compared recursively. A "different"
//    verdict is reliable up to the tolerance; "equal" is probabilistic evidence only.
#include "semantics/core/lazy_mt19937_64.hpp"
#include "semantics/core/tolerance.hpp"
#include "semantics/core/value.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <random>
#include <string>

namespace adsem::model {

// The random functions below draw from a std::mt19937_64 or a LazyMt19937_64 (the same numbers;
// the lazy one for a caller that seeds one per comparison and draws a few).

// Entries uniform in [low, high).
template <class Rng>
Eigen::VectorXd random_vector(std::size_t n, Rng& rng, double low = -1.0, double high = 1.0);
// A covector is represented by its coefficient vector (Riesz, mak-ong §5.3).
template <class Rng> Eigen::VectorXd random_covector(std::size_t n, Rng& rng) {
  return random_vector(n, rng);
}

using LinearMap = std::function<Eigen::VectorXd(const Eigen::VectorXd&)>;

struct DotProductReport {
  bool passed = true;
  int probes = 0;
  double worst_ratio = 0;   // tolerance_ratio of the worst probe (<= 1 passes)
  double worst_forward = 0; // ⟨u, J v⟩ at the worst probe
  double worst_reverse = 0; // ⟨Jᵀ u, v⟩ at the worst probe
};

// forward: v ∈ R^n ↦ J v ∈ R^m; reverse: u ∈ R^m ↦ Jᵀ u ∈ R^n.
DotProductReport dot_product_test(const LinearMap& forward, const LinearMap& reverse, std::size_t n,
                                  std::size_t m, std::uint64_t seed, int probes = 3,
                                  Tolerance tolerance = default_tolerance(CheckKind::probe));

// A random value of a type (mak-ong §5.5 "Constructing model values"): reals uniform in [-2, 2],
// integers in [-3, 3], tuples componentwise, a random injection, and for σ -> τ a smooth random
// function z ↦ v0 + sin(φ(z)) · v1 with v0, v1 random in τ and φ a random linear feature of z
// (function-typed z are read through their value at a random argument).
template <class Rng> Value<double> random_value(const ModelType& type, Rng& rng);

extern template Eigen::VectorXd random_vector(std::size_t, std::mt19937_64&, double, double);
extern template Eigen::VectorXd random_vector(std::size_t, LazyMt19937_64&, double, double);
extern template Value<double> random_value(const ModelType&, std::mt19937_64&);
extern template Value<double> random_value(const ModelType&, LazyMt19937_64&);

struct ProbeReport {
  bool equal = true;
  int probes = 0;              // random arguments applied to function values
  int comparisons = 0;         // reals compared
  double worst_ratio = 0;      // largest tolerance_ratio met (<= 1 everywhere iff equal)
  double worst_difference = 0; // |a - b| at that place
  std::string worst_place;     // path to it, e.g. "π2 @arg1 π1"
};

// Compares a and b (both of `type`) extensionally, applying function values to
// arguments_per_function random arguments at each function level (at most max_probes in all).
ProbeReport compare_by_probing(const Value<double>& a, const Value<double>& b,
                               const ModelType& type, std::uint64_t seed,
                               int arguments_per_function = 3,
                               Tolerance tolerance = default_tolerance(CheckKind::probe),
                               int max_probes = 1000);

} // namespace adsem::model
