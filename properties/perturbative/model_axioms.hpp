#pragma once
// Axioms D4 and D5 of a cartesian differential category (seed 004, Def 3.4, L78-83) and the
// linearity of 𝒯 (Thm 3.10, L125), each a check of a GIVEN derivative D or pushforward 𝒯 on
// morphisms of the model. The model properties (model_properties.cpp) pass the model's own; the
// tests pass wrong ones, which is how these self-checks of the model show that they can fail.
#include <cstdint>
#include <functional>

#include "properties/perturbative/support.hpp"

namespace adsem::perturbative::model_axioms {

using support::PropertyContext;
using support::TrialResult;
using support::V;

// D f (v, a); the model's is π1(𝒯 f (v, a)) (L84).
using Derivative = std::function<V(const V& f, const V& v, const V& a)>;
// 𝒯 f, a function on Tρ = ρ × ρ, (tangent, point) ↦ (tangent, value) (L94, L121-124).
using Pushforward = std::function<V(const V& f)>;

Derivative model_derivative(const model::DiffContext& diff);
Pushforward model_pushforward(const model::DiffContext& diff);

// A morphism f : domain → codomain of the model.
struct Morphism {
  V value;
  Type domain, codomain;
};

// Each check draws its points and directions from `seed` and compares by probing.
// D4: D⟨f, g⟩ = ⟨Df, Dg⟩, f and g on one domain.
TrialResult pairing_axiom(const Derivative& d, const Morphism& f, const Morphism& g,
                          std::uint64_t seed, const PropertyContext& context);
// D5: D(f ∘ g) = Df ∘ ⟨Dg, g ∘ π2⟩, g : ρ → σ and f : σ → τ.
TrialResult chain_rule_axiom(const Derivative& d, const Morphism& f, const Morphism& g,
                             std::uint64_t seed, const PropertyContext& context);

// Thm 3.10, 𝒯 linear: additive,
//   𝒯(f + g) = 𝒯f + 𝒯g, each real of the sides compared relative to its terms (they may cancel);
TrialResult pushforward_additive(const Pushforward& t, const Morphism& f, const Morphism& g,
                                 std::uint64_t seed, const PropertyContext& context);
//   𝒯0 = 0 on ρ → τ;
TrialResult pushforward_of_zero(const Pushforward& t, const Type& rho, const Type& tau,
                                std::uint64_t seed, const PropertyContext& context);
//   and D(𝒯)(g, f) = 𝒯g: the derivative of 𝒯 at f along g, taken by `outer`, is 𝒯g.
TrialResult pushforward_derivative(const Pushforward& t, const Derivative& outer, const Morphism& f,
                                   const Morphism& g, std::uint64_t seed,
                                   const PropertyContext& context);

} // namespace adsem::perturbative::model_axioms
