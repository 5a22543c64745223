#include "properties/perturbative/model_axioms.hpp"

#include <random>

#include "semantics/core/probe.hpp"

namespace adsem::perturbative::model_axioms {

namespace {

// A direction and a point of ρ, drawn from the seed.
struct TangentVector {
  V v, a;
};
TangentVector draw_tangent_vector(const Type& rho, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const model::ModelType mr = model_type(rho);
  const V v = model::random_value(mr, rng); // before a: the order of the draws
  return {v, model::random_value(mr, rng)};
}

} // namespace

Derivative model_derivative(const model::DiffContext& diff) {
  return [diff](const V& f, const V& v, const V& a) {
    return model::directional_derivative(f, a, v, diff);
  };
}

TrialResult pairing_axiom(const Derivative& d, const Morphism& f, const Morphism& g,
                          std::uint64_t seed, const PropertyContext& context) {
  const auto [v, a] = draw_tangent_vector(f.domain, seed);
  const V fv = f.value, gv = g.value;
  const V paired = V::function([fv, gv](const V& x) { return V::pair(fv(x), gv(x)); });
  return support::compare_values(V::pair(d(fv, v, a), d(gv, v, a)), "⟨Df, Dg⟩(v, a)",
                                 d(paired, v, a), "D⟨f, g⟩(v, a)",
                                 product_type(f.codomain, g.codomain), seed, context);
}

TrialResult chain_rule_axiom(const Derivative& d, const Morphism& f, const Morphism& g,
                             std::uint64_t seed, const PropertyContext& context) {
  const auto [v, a] = draw_tangent_vector(g.domain, seed);
  const V fv = f.value, gv = g.value;
  const V composed = V::function([fv, gv](const V& x) { return fv(gv(x)); });
  return support::compare_values(d(fv, d(gv, v, a), gv(a)), "Df(Dg(v, a), g a)", d(composed, v, a),
                                 "D(f ∘ g)(v, a)", f.codomain, seed, context);
}

} // namespace adsem::perturbative::model_axioms
