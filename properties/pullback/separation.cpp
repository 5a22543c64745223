// P17 separation sanity (seed 000 L442-446, Prop. E.3 L873-877; spec §5.5, §6 P17).
#include "properties/pullback/separation.hpp"

#include <algorithm>
#include <random>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "generators/pullback/terms.hpp"
#include "properties/pullback/bodies.hpp"
#include "semantics/core/linear_maps.hpp"

namespace adsem::pullback::separation {

using namespace support;

TrialResult check(const V& x, const V& y, const Type& t, bool certain, const ProbeFamily& family) {
  const ProbeReading r = family(x, y, t);
  if (r.worst_ratio > 1.0) return TrialResult::pass();
  if (!certain) return TrialResult::discard("function-pair-agrees-on-every-sampled-argument");
  return TrialResult::fail(fmt::format(
      "distinct values of {} agree on all {} probes ({} comparisons): the probe family does not "
      "separate points (Hahn–Banach, Prop. E.3)",
      type_text(t), r.probes, r.comparisons));
}

namespace {

// y − x: one coordinate of a Euclidean part or of a covector (|d| in [0.5, 2]), `certain`; a
// random model value at function types (a random smooth function or linear functional, nonzero
// almost surely but not certainly on the sampled arguments).
struct Difference {
  V value;
  bool certain = false;
};

std::vector<double> unit_bump(std::size_t n, std::mt19937_64& rng) {
  std::vector<double> e(n, 0.0);
  e[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)] =
      (rng() % 2 ? 1.0 : -1.0) * std::uniform_real_distribution<double>(0.5, 2.0)(rng);
  return e;
}

Difference difference(const Type& t, std::mt19937_64& rng) {
  if (is_euclidean(t)) {
    const std::vector<double> e = unit_bump(dim(t), rng);
    const std::vector<model::Dual<double>> d(e.begin(), e.end());
    std::size_t next = 0;
    return {ground<double>(t, std::span<const model::Dual<double>>(d), next), true};
  }
  if (is_dual(t) && is_euclidean(t->left) && dim(t->left) <= 4) {
    const std::vector<double> e = unit_bump(dim(t->left), rng);
    return {model::covector<double>(Eigen::Map<const Eigen::VectorXd>(e.data(), e.size())), true};
  }
  if (is_prod(t)) { // one side differs
    const bool left = rng() % 2;
    Difference d = difference(left ? t->left : t->right, rng);
    const V z = model::zero<double>(model_type(left ? t->right : t->left));
    return {left ? V::pair(d.value, z) : V::pair(z, d.value), d.certain};
  }
  return {random_model_value(t, rng), false};
}

// The types of a generated term's subterms (closed terms of every template and open queries):
// Euclidean, covectors, functions, 1-forms, duals of functions and their products.
std::vector<Type> subterm_types(const Term& t) {
  std::vector<Type> out;
  std::vector<std::string> seen;
  const auto walk = [&](const auto& self, const Term& u) -> void {
    const Type ty = type_of(u);
    if (ty && !mentions_any(ty)) {
      std::string text = type_text(ty);
      if (std::find(seen.begin(), seen.end(), text) == seen.end()) {
        seen.push_back(std::move(text));
        out.push_back(ty);
      }
    }
    for (const Term& k : u->kids)
      self(self, k);
  };
  walk(walk, t);
  return out;
}

} // namespace

} // namespace adsem::pullback::separation

namespace adsem::pullback::bodies {

// P17: for distinct x ≠ y of a generated type the probe family of §5.5 (the one every comparison
// of these properties uses) finds a separating probe: always on Euclidean parts and covectors,
// and on function spaces within its K sampled arguments (else a counted discard).
TrialResult separation(const PropertyContext& context) {
  const bool open = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 3)) == 0;
  const Term t = open ? (*gen::symbolic_query()).term() : *gen::closed_term();
  const std::vector<Type> types = separation::subterm_types(t);
  if (types.empty()) return on(TrialResult::discard("no-typed-subterm"), t);
  const Type ty = types[adsem::gen::uniform_below(types.size())];
  const std::uint64_t seed = draw_seed();
  return guarded(t, [&] {
    std::mt19937_64 rng(seed);
    const V x = random_model_value(ty, rng);
    const auto [d, certain] = separation::difference(ty, rng);
    const V y = model::sum(x, d);
    const Tolerance tol = context.tolerance(CheckKind::probe);
    const std::uint64_t probe_seed = rng();
    const separation::ProbeFamily family = [&](const V& a, const V& b, const Type& at) {
      return probe(a, b, at, probe_seed, tol);
    };
    return on(separation::check(x, y, ty, certain, family), t);
  });
}

} // namespace adsem::pullback::bodies
