// Properties of the model (seed 004 §3; spec §6.3 MOD-*), on morphisms that are denotations of
// random closed perturbative terms, so the model is validated at the types this calculus uses
// (function types included). They test the model only (the calculus's rules are not involved);
// the calculus-level counterparts are in functor_properties.cpp and lemma_properties.cpp.
//   model-differential-axioms   MOD-2: D1, D2, D6, D7 (Def 3.4, L78-83)
//   model-differential-lambda   MOD-3 / MOD-9 / MOD-12: D(Λf) = Λ(Df∘⟨π1×0, π2×id⟩) (Def 3.5 L90,
//                               Prop 3.9 L112-114, Prop 3.11 L126)
//   model-linear-maps           MOD-4 / MOD-5 / MOD-13: linear maps have 𝒯f = f × f (Lemma 3.7,
//                               L85-87, L95) and are additive; sw (Def 3.12, L128) among them
//   model-monad-laws            MOD-7: (T, η, μ) is a monad, η and μ natural (L96)
//   model-pairing-and-chain-rule
//                               MOD-2: D4, D5 (Def 3.4, L78-83), the checks in model_axioms.hpp
//   model-pushforward-linear    MOD-11: 𝒯 is linear (Thm 3.10, L125), with model_axioms.hpp
// D3 (D(id) = π1, D(π_k) = π_k∘π1) is model-linear-maps' rows for the identity and projections.
// Not separately executable: MOD-1 (laws (1), (2), left-additivity) holds by construction of the
// environment semantics and of model::sum (a check would compare model::sum with itself);
// MOD-6, MOD-8, MOD-10 are checked through the calculus (functor-chain-rule, preserves-products,
// diamond-semantics); MOD-11's additivity also through sugar-soundness.
#include <random>

#include <rapidcheck.h>

#include "generators/perturbative/terms.hpp"
#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/model_axioms.hpp"
#include "properties/perturbative/support.hpp"
#include "semantics/core/probe.hpp"

namespace adsem::perturbative {

namespace {

using namespace support;

struct Morphism {
  Term term;
  V value;
};

// D f (v, a) := π1(𝒯 f (v, a)) (L84)
V d_of(const V& f, const V& v, const V& a, const DenoteContext& dc) {
  return model::pushforward(f, v, a, dc.diff).first();
}
// D f as a closure on pairs q = (v, a)
V d_closure(const V& f, const DenoteContext& dc) {
  return V::function([f, dc](const V& q) { return d_of(f, q.first(), q.second(), dc); });
}

// ---- MOD-2: D1 (D additive in f), D2 (additive in the direction), D6 (Df linear in the
// direction), D7 (symmetry of second derivatives) ----
TrialResult differential_axioms(const PropertyContext& context) {
  const Type rho = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Term f = *gen::term({}, arrow_type(rho, tau), 2);
  const Term g = *gen::term({}, arrow_type(rho, tau), 2);
  const int axiom = uniform(4);
  const std::uint64_t seed = probe_seed();
  static const char* const names[] = {"D1", "D2", "D6", "D7"};
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const V fv = denote<double>(f, nullptr, dc);
    std::mt19937_64 rng(seed);
    const model::ModelType mr = model_type(rho);
    const V h = model::random_value(mr, rng), k = model::random_value(mr, rng),
            a = model::random_value(mr, rng);
    V lhs, rhs;
    switch (axiom) {
    case 0: { // D(f + g) = Df + Dg
      const V gv = denote<double>(g, nullptr, dc);
      lhs = d_of(model::sum(fv, gv), h, a, dc);
      rhs = model::sum(d_of(fv, h, a, dc), d_of(gv, h, a, dc));
      break;
    }
    case 1: // Df∘⟨h + k, a⟩ = Df∘⟨h, a⟩ + Df∘⟨k, a⟩
      lhs = d_of(fv, model::sum(h, k), a, dc);
      rhs = model::sum(d_of(fv, h, a, dc), d_of(fv, k, a, dc));
      break;
    case 2: { // D(Df)∘⟨⟨h, 0⟩, ⟨k, a⟩⟩ = Df∘⟨h, a⟩
      const V zero = model::zero<double>(mr);
      lhs = d_of(d_closure(fv, dc), V::pair(h, zero), V::pair(k, a), dc);
      rhs = d_of(fv, h, a, dc);
      break;
    }
    default: { // D(Df)∘⟨⟨0, h⟩, ⟨k, a⟩⟩ = D(Df)∘⟨⟨0, k⟩, ⟨h, a⟩⟩
      const V zero = model::zero<double>(mr);
      lhs = d_of(d_closure(fv, dc), V::pair(zero, h), V::pair(k, a), dc);
      rhs = d_of(d_closure(fv, dc), V::pair(zero, k), V::pair(h, a), dc);
      break;
    }
    }
    return on_only(compare_values(lhs, "left side", rhs, "right side", tau, seed, context), f,
                   {names[axiom]});
  });
}

// ⟦m⟧ for a closed m : ρ → τ, as a morphism ρ → τ of the model
model_axioms::Morphism morphism(const Term& m, const DenoteContext& dc) {
  return {denote<double>(m, nullptr, dc), m.type->left, m.type->right};
}

// ---- MOD-2, D4 (D⟨f, g⟩ = ⟨Df, Dg⟩: D respects pairing) and D5 (D(f∘g) = Df∘⟨Dg, g∘π2⟩: the
// chain rule) at random points and directions, f and g denotations of random terms ----
TrialResult pairing_and_chain_rule(const PropertyContext& context) {
  const Type rho = *rc::gen::elementOf(gen::type_pool());
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const bool chain = uniform(2) == 1;
  // D4: f : ρ → σ and g : ρ → τ; D5: f : σ → τ and g : ρ → σ
  const Term f = *gen::term({}, chain ? arrow_type(sigma, tau) : arrow_type(rho, sigma), 2);
  const Term g = *gen::term({}, chain ? arrow_type(rho, sigma) : arrow_type(rho, tau), 2);
  const std::uint64_t seed = probe_seed();
  // the morphism the axiom differentiates, as a term for the report: λx. f (g x) or λx. ⟨f x, g x⟩
  const Term x = var("x", rho);
  const Term shown = lam("x", rho, chain ? app(f, app(g, x)) : pair(app(f, x), app(g, x)));
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const model_axioms::Morphism fm = morphism(f, dc), gm = morphism(g, dc);
    const model_axioms::Derivative d = model_axioms::model_derivative(dc.diff);
    return on_only(chain ? model_axioms::chain_rule_axiom(d, fm, gm, seed, context)
                         : model_axioms::pairing_axiom(d, fm, gm, seed, context),
                   shown, {chain ? "D5" : "D4"});
  });
}

// ---- MOD-11, Thm 3.10 (L125): 𝒯 : (ρ ⇒ τ) → (Tρ ⇒ Tτ) is linear: 𝒯(f + g) = 𝒯f + 𝒯g and
// 𝒯0 = 0 (sugar-soundness meets these through T(M + N) and T 0), and D(𝒯)(g, f) = 𝒯g, the
// derivative of 𝒯 along g taken by the model's D through nested tags ----
TrialResult pushforward_linear(const PropertyContext& context) {
  const Type rho = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Type arrow = arrow_type(rho, tau);
  const int law = uniform(3);
  static const char* const names[] = {"additive", "zero", "derivative"};
  const std::uint64_t seed = probe_seed();
  if (law == 1)
    return guarded([&] {
      const DenoteContext dc = denote_context(context);
      return on_only(model_axioms::pushforward_of_zero(model_axioms::model_pushforward(dc.diff),
                                                       rho, tau, seed, context),
                     push(zero(arrow)), {names[law]});
    });
  const Term f = *gen::term({}, arrow, 2);
  const Term g = *gen::term({}, arrow, 2);
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const model_axioms::Morphism fm = morphism(f, dc), gm = morphism(g, dc);
    const model_axioms::Pushforward t = model_axioms::model_pushforward(dc.diff);
    if (law == 0)
      return on_only(model_axioms::pushforward_additive(t, fm, gm, seed, context), push(sum(f, g)),
                     {names[law]});
    return on_only(model_axioms::pushforward_derivative(t, model_axioms::model_derivative(dc.diff),
                                                        fm, gm, seed, context),
                   pair(f, g), {names[law]});
  });
}

// ---- MOD-3: D(Λf)(z′, z) probed at x = Df((z′, 0), (z, x)); MOD-9: the primal is Λf z ----
TrialResult differential_lambda(const PropertyContext& context) {
  const Type zeta = *rc::gen::elementOf(gen::type_pool());
  const Type chi = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Term f = *gen::term({}, arrow_type(product_type(zeta, chi), tau), 2);
  const std::uint64_t seed = probe_seed();
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const V fv = denote<double>(f, nullptr, dc);
    const V curried = V::function([fv](const V& z) {
      return V::function([fv, z](const V& x) { return fv(V::pair(z, x)); });
    });
    std::mt19937_64 rng(seed);
    const V dz = model::random_value(model_type(zeta), rng);
    const V z = model::random_value(model_type(zeta), rng);
    const V lhs = model::pushforward(curried, dz, z, dc.diff); // 𝒯(Λf)(z′, z)
    const V zero_chi = model::zero<double>(model_type(chi));
    const V rhs = V::pair(V::function([fv, dz, z, zero_chi, dc](const V& x) {
                            return d_of(fv, V::pair(dz, zero_chi), V::pair(z, x), dc);
                          }),
                          V::function([fv, z](const V& x) { return fv(V::pair(z, x)); }));
    return on_only(compare_values(rhs, "⟨Λ(Df∘⟨(z′,0),(z,·)⟩), Λf z⟩", lhs, "𝒯(Λf)(z′, z)",
                                  tangent_type(arrow_type(chi, tau)), seed, context),
                   f, {});
  });
}

// ---- MOD-4 / MOD-5 / MOD-13: linear maps (L85-87): 𝒯f (v, a) = (f v, f a) (Lemma 3.7, L95),
// and f (v + w) = f v + f w ----
struct LinearMap {
  const char* source;
  const char* law; // where the paper lists it as linear
};
const std::vector<LinearMap>& linear_maps() {
  static const std::vector<LinearMap> maps = {
      {"\\x:R. x", "identity (L86)"},
      {"\\p:R*R. pi1 p", "projection (L86)"},
      {"\\p:R*R. pi2 p", "projection (L86)"},
      {"\\x:R. (in1 x : R * R)", "ι1 = ⟨id, 0⟩ (Remark 3.3)"},
      {"\\p:R*R. pi1 p + pi2 p", "sum of projections (L86)"},
      {"\\p:R*R. (pi2 p, pi1 p)", "pairing of projections (L86)"},
      {"\\p:(R*R)*R. ((pi1 (pi1 p), pi2 p), pi2 (pi1 p))", "sw (Def 3.12, L128)"},
      {"\\x:R. (0 : R)", "zero (L86)"},
      {"\\x:R. neg x", "neg (linear primitive, spec §7)"},
      {"\\f:R->R. f", "identity at a function type"},
      {"\\f:R->R. \\x:R. f x + f (x * 2)", "ev linear in the function argument (L91)"},
      {"\\p:T (R*R). (pi2 (pi1 p) + pi1 (pi2 p), pi2 (pi2 p))", "μ_R (L96)"},
  };
  return maps;
}

TrialResult linear_maps_property(const PropertyContext& context) {
  const LinearMap& entry = *rc::gen::elementOf(linear_maps());
  const Term f = parse_closed(entry.source);
  const std::uint64_t seed = probe_seed();
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const V fv = denote<double>(f, nullptr, dc);
    const model::ModelType domain = model_type(f.type->left);
    std::mt19937_64 rng(seed);
    const V v = model::random_value(domain, rng), w = model::random_value(domain, rng),
            a = model::random_value(domain, rng);
    TrialResult r =
        compare_values(V::pair(fv(v), fv(a)), "(f v, f a)", model::pushforward(fv, v, a, dc.diff),
                       "𝒯f (v, a)", tangent_type(f.type->right), seed, context);
    if (r.kind == TrialResult::Kind::pass)
      r = compare_values(model::sum(fv(v), fv(w)), "f v + f w", fv(model::sum(v, w)), "f (v + w)",
                         f.type->right, seed, context);
    if (r.kind == TrialResult::Kind::fail) r.reason = std::string(entry.law) + ": " + r.reason;
    return on_only(r, f, {});
  });
}

// ---- MOD-7: η = ⟨0, id⟩, μ((u′, v′), (u, v)) = (v′ + u, v) (L96); the monad laws and the
// naturality of η and μ ----
V eta(const model::ModelType& x) {
  return V::function([x](const V& a) { return V::pair(model::zero<double>(x), a); });
}
V mu() {
  return V::function([](const V& q) {
    return V::pair(model::sum(q.first().second(), q.second().first()), q.second().second());
  });
}

TrialResult monad_laws(const PropertyContext& context) {
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Term f = *gen::term({}, arrow_type(sigma, tau), 2);
  const int law = uniform(5);
  const std::uint64_t seed = probe_seed();
  static const char* const names[] = {"eta-natural", "mu-natural", "mu-associative", "mu-eta-left",
                                      "mu-eta-right"};
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const model::ModelType ms = model_type(sigma);
    const model::ModelType t1 = model::ModelType::tangent_bundle(ms);
    const model::ModelType t2 = model::ModelType::tangent_bundle(t1);
    std::mt19937_64 rng(seed);
    const V fv = denote<double>(f, nullptr, dc);
    const V tf = model::pushforward(fv, dc.diff);
    V lhs, rhs;
    Type at = tangent_type(tau);
    switch (law) {
    case 0: { // Tf ∘ η = η ∘ f
      const V a = model::random_value(ms, rng);
      lhs = tf(eta(ms)(a));
      rhs = eta(model_type(tau))(fv(a));
      break;
    }
    case 1: { // Tf ∘ μ = μ ∘ TTf
      const V q = model::random_value(t2, rng);
      lhs = tf(mu()(q));
      rhs = mu()(model::pushforward(tf, dc.diff)(q));
      break;
    }
    case 2: { // μ ∘ Tμ = μ ∘ μ_T on TTTσ
      const V w = model::random_value(model::ModelType::tangent_bundle(t2), rng);
      lhs = mu()(model::pushforward(mu(), dc.diff)(w));
      rhs = mu()(mu()(w));
      at = tangent_type(sigma);
      break;
    }
    case 3: { // μ ∘ η_T = id on Tσ
      const V p = model::random_value(t1, rng);
      lhs = mu()(eta(t1)(p));
      rhs = p;
      at = tangent_type(sigma);
      break;
    }
    default: { // μ ∘ Tη = id on Tσ
      const V p = model::random_value(t1, rng);
      lhs = mu()(model::pushforward(eta(ms), dc.diff)(p));
      rhs = p;
      at = tangent_type(sigma);
      break;
    }
    }
    return on_only(compare_values(rhs, "right side", lhs, "left side", at, seed, context), f,
                   {names[law]});
  });
}

// ---- MOD-7, the monoidal structure (L96-109): the strengths t_{X,Y} : X × TY → T(X × Y),
// (x, (y′, y)) ↦ ((0, y′), (x, y)), and t′_{X,Y} : TX × Y → T(X × Y), ((x′, x), y) ↦ ((x′, 0),
// (x, y)); ψ = μ ∘ T(t_{X,Y}) ∘ t′_{X,TY} and ψ̃ = μ ∘ T(t′_{X,Y}) ∘ t_{TX,Y} both equal
// σ((x′, x), (y′, y)) = ((x′, y′), (x, y)), so T is commutative. The paper lost the subscripts
// of t and t′ in ψ and ψ̃ (spec §12, erratum 4): these are the spec's reconstruction, checked
// here in the model with its own pushforward for T(t) and T(t′). ----
V strength_right(const model::ModelType& x) { // t_{X,Y}
  return V::function([x](const V& p) {
    const V& q = p.second();
    return V::pair(V::pair(model::zero<double>(x), q.first()), V::pair(p.first(), q.second()));
  });
}
V strength_left(const model::ModelType& y) { // t′_{X,Y}
  return V::function([y](const V& p) {
    const V& q = p.first();
    return V::pair(V::pair(q.first(), model::zero<double>(y)), V::pair(q.second(), p.second()));
  });
}

TrialResult monoidal_structure(const PropertyContext& context) {
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const bool tilde = uniform(2) == 1;
  const std::uint64_t seed = probe_seed();
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const model::ModelType mx = model_type(sigma), my = model_type(tau);
    const auto tx = model::ModelType::tangent_bundle(mx), ty = model::ModelType::tangent_bundle(my);
    std::mt19937_64 rng(seed);
    const V p = V::pair(model::random_value(tx, rng), model::random_value(ty, rng));
    const V sigma_p = V::pair(V::pair(p.first().first(), p.second().first()),
                              V::pair(p.first().second(), p.second().second()));
    // ψ = μ ∘ T(t_{X,Y}) ∘ t′_{X,TY};  ψ̃ = μ ∘ T(t′_{X,Y}) ∘ t_{TX,Y}
    const V psi = tilde
                      ? mu()(model::pushforward(strength_left(my), dc.diff)(strength_right(tx)(p)))
                      : mu()(model::pushforward(strength_right(mx), dc.diff)(strength_left(ty)(p)));
    return compare_values(sigma_p, "σ((x′, x), (y′, y)) = ((x′, y′), (x, y))", psi,
                          tilde ? "ψ̃ = μ ∘ T(t′) ∘ t" : "ψ = μ ∘ T(t) ∘ t′",
                          tangent_type(product_type(sigma, tau)), seed, context);
  });
}

} // namespace

std::vector<PropertyDef> model_properties() {
  return {
      def("model-differential-axioms", "model",
          "the model's D satisfies D1, D2, D6, D7 on denotations of random terms (probing)",
          "seed 004, Def 3.4, L78-83; spec MOD-2", differential_axioms),
      def("model-pairing-and-chain-rule", "model",
          "the model's D satisfies D4, D⟨f, g⟩ = ⟨Df, Dg⟩, and D5, D(f ∘ g) = Df ∘ ⟨Dg, g ∘ π2⟩, "
          "on denotations of random terms (probing)",
          "seed 004, Def 3.4 axioms D4, D5, L78-83; spec MOD-2", pairing_and_chain_rule),
      def("model-differential-lambda", "model",
          "𝒯(Λf)(z′, z) = ⟨λx. Df((z′, 0), (z, x)), λx. f (z, x)⟩",
          "seed 004, Def 3.5 L90, Prop 3.9 L112-114, Prop 3.11 L126; spec MOD-3, MOD-9, MOD-12",
          differential_lambda),
      def("model-linear-maps", "model",
          "identity, projections, ι, sums, pairings, sw, 0, neg, ev in f: 𝒯f = f × f and f "
          "additive",
          "seed 004 L85-87, Lemma 3.7 L95, Def 3.12 L128; spec MOD-4, MOD-5, MOD-13",
          linear_maps_property),
      def("model-monad-laws", "model",
          "η and μ are natural, μ ∘ Tμ = μ ∘ μ_T, μ ∘ η_T = id = μ ∘ Tη",
          "seed 004 L96; spec MOD-7", monad_laws),
      def("model-monoidal-structure", "model",
          "ψ = μ ∘ T(t) ∘ t′ and ψ̃ = μ ∘ T(t′) ∘ t equal σ((x′, x), (y′, y)) = ((x′, y′), (x, y))",
          "seed 004 L96-109 (subscripts of t, t′ reconstructed: spec §12 erratum 4); spec MOD-7",
          monoidal_structure),
      def("model-pushforward-linear", "model",
          "𝒯 is linear: 𝒯(f + g) = 𝒯f + 𝒯g (sums compared relative to their terms), 𝒯0 = 0, and "
          "D(𝒯)(g, f) = 𝒯g by nested tags, f and g denotations of random terms",
          "seed 004, Thm 3.10 L125 (𝒯 = Λ(T(ev)∘t), L121-124); spec MOD-11", pushforward_linear),
  };
}

} // namespace adsem::perturbative
