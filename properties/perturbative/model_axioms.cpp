#include "properties/perturbative/model_axioms.hpp"

#include <random>

#include "properties/core/sum_compare.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/core/probe_leaves.hpp"

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

Pushforward model_pushforward(const model::DiffContext& diff) {
  return [diff](const V& f) { return model::pushforward(f, diff); };
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

TrialResult pushforward_additive(const Pushforward& t, const Morphism& f, const Morphism& g,
                                 std::uint64_t seed, const PropertyContext& context) {
  const model::ModelType type =
      model_type(arrow_type(tangent_type(f.domain), tangent_type(f.codomain)));
  const std::vector<double> tf = model::probe_leaves(t(f.value), type, seed);
  const std::vector<double> tg = model::probe_leaves(t(g.value), type, seed);
  std::vector<SumWithMagnitude> added;
  for (std::size_t i = 0; i < tf.size() && i < tg.size(); ++i)
    added.push_back(props::add_terms(props::term(tf[i]), props::term(tg[i])));
  const std::vector<double> sum = model::probe_leaves(t(model::sum(f.value, g.value)), type, seed);
  return props::compare_sum_vectors(added, "𝒯f + 𝒯g (probed)", props::terms(sum),
                                    "𝒯(f + g) (probed)", CheckKind::probe,
                                    context.tolerance(CheckKind::probe));
}

TrialResult pushforward_of_zero(const Pushforward& t, const Type& rho, const Type& tau,
                                std::uint64_t seed, const PropertyContext& context) {
  const Type tangent_map = arrow_type(tangent_type(rho), tangent_type(tau));
  return support::compare_values(model::zero<double>(model_type(tangent_map)), "0",
                                 t(model::zero<double>(model_type(arrow_type(rho, tau)))), "𝒯0",
                                 tangent_map, seed, context);
}

TrialResult pushforward_derivative(const Pushforward& t, const Derivative& outer, const Morphism& f,
                                   const Morphism& g, std::uint64_t seed,
                                   const PropertyContext& context) {
  const V t_closure = V::function([t](const V& h) { return t(h); }); // 𝒯 : (ρ ⇒ τ) → (Tρ ⇒ Tτ)
  return support::compare_values(t(g.value), "𝒯g", outer(t_closure, g.value, f.value), "D(𝒯)(g, f)",
                                 arrow_type(tangent_type(f.domain), tangent_type(f.codomain)), seed,
                                 context);
}

} // namespace adsem::perturbative::model_axioms
