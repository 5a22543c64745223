// Lemmas of seed 004 §5 and the sugar, as executable properties on open terms (spec §6.2), and
// the cost of T_x (spec §9.6):
//   diamond-semantics     SEM-3, Lemma 5.3 (L299-307): ⟦M ⬦ N⟧ = (f′ a + π1(𝒯 f (a′, a)), f a)
//   substitution-lemma    SEM-4, Lemma 5.4 (L309-313): ⟦M[P/x]⟧γ = ⟦M⟧(γ, x ↦ ⟦P⟧γ)
//   sugar-soundness       SEM-11 (L165-185, L293): each sugar identity holds in the model
//   tx-size-bound         the tree size of T_x M is at most what Fig. 4 implies (tx_cost.hpp)
#include <random>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/perturbative/terms.hpp"
#include "properties/perturbative/enumeration.hpp"
#include "properties/perturbative/mutants.hpp"
#include "properties/perturbative/support.hpp"
#include "properties/perturbative/user_rules.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/perturbative/substitution.hpp"
#include "semantics/perturbative/transform.hpp"
#include "semantics/perturbative/tx_cost.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

using namespace support;

// An environment γ = (y ↦ a random value of ρ), drawn from the probe seed.
struct Gamma {
  Type rho;
  V y;
  Context context() const { return {{"y", rho}}; }
};
Gamma draw_gamma(std::uint64_t seed) {
  Gamma g{*rc::gen::elementOf(gen::type_pool()), V()};
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  g.y = model::random_value(model_type(g.rho), rng);
  return g;
}

Env<double> env_of(const Gamma& g) {
  return extend<double>(nullptr, "y", g.y);
}

// ---- SEM-3: Lemma 5.3 (L299-307) with eq. (3) (L115-120): |M ⬦ N| = T(ev)∘ψ∘⟨|M|, |N|⟩ ----
TrialResult diamond_semantics(const PropertyContext& context) {
  const std::uint64_t seed = probe_seed();
  const Gamma g = draw_gamma(seed);
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Term m = *gen::term(g.context(), tangent_type(arrow_type(sigma, tau)), 2);
  const Term n = *gen::term(g.context(), tangent_type(sigma), 2);
  // the ⬦ of the active rule book: its T_x clause for an application s N, given X = T_x s and
  // Y = T_x N, is exactly X ⬦ Y (Fig. 4)
  Simple application;
  application.kind = Kind::app;
  application.type = tau;
  const Term diamond_mn = tx_clause(*semantics_for(context).rules, "x", sigma, application, &m, &n);
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const V mv = denote<double>(m, env_of(g), dc), nv = denote<double>(n, env_of(g), dc);
    const V f_tangent = mv.first(), f = mv.second(), a_tangent = nv.first(), a = nv.second();
    const V expected = V::pair(
        model::sum(f_tangent(a), model::pushforward(f, a_tangent, a, dc.diff).first()), f(a));
    const V actual = denote<double>(diamond_mn, env_of(g), dc);
    return on(compare_values(expected, "(f′ a + π1(𝒯 f (a′, a)), f a)", actual, "⟦M ⬦ N⟧",
                             tangent_type(tau), seed, context),
              diamond_mn);
  });
}

// ---- SEM-4: Lemma 5.4 (L309-313), P possibly a sum or 0 ----
TrialResult substitution_lemma(const PropertyContext& context) {
  const std::uint64_t seed = probe_seed();
  const Gamma g = draw_gamma(seed);
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Term m = *gen::term({{"y", g.rho}, {"x", sigma}}, tau, 3);
  const int shape = uniform(6);
  Term p = zero(sigma);
  std::vector<std::string> tags;
  if (shape == 0) {
    tags.push_back("zero-argument");
  } else if (shape <= 2) {
    p = sum(*gen::term(g.context(), sigma, 2), *gen::term(g.context(), sigma, 2));
    tags.push_back("sum-argument");
  } else {
    p = *gen::term(g.context(), sigma, 2);
  }
  const Term substituted = substitute(m, "x", p);
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const V pv = denote<double>(p, env_of(g), dc);
    const V expected = denote<double>(m, extend<double>(env_of(g), "x", pv), dc);
    const V actual = denote<double>(substituted, env_of(g), dc);
    return on(compare_values(expected, "⟦M⟧(γ, x ↦ ⟦P⟧γ)", actual, "⟦M[P/x]⟧γ", tau, seed, context),
              m, tags);
  });
}

// ---- SEM-11: the sugar of L165-185 is sound. Our AST cannot hold the left-hand sides (the smart
// constructors distribute them away), so each left-hand side is interpreted by the model's own
// clause for the undistributed form and compared with ⟦distributed term⟧. ----
TrialResult sugar_soundness(const PropertyContext& context) {
  const std::uint64_t seed = probe_seed();
  const Gamma g = draw_gamma(seed);
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Type arrow = arrow_type(sigma, tau);
  const int clause = uniform(5);
  const DenoteContext dc = denote_context(context);
  const auto meaning = [&](const Term& t) { return denote<double>(t, env_of(g), dc); };
  const auto check = [&](const V& undistributed, const std::string& label, const Term& distributed,
                         const std::string& tag) {
    return guarded([&] {
      return on(compare_values(undistributed, label, meaning(distributed), "⟦" + tag + "⟧",
                               distributed.type, seed, context),
                distributed, {tag});
    });
  };
  switch (clause) {
  case 0: { // λx.(M + N) := λx.M + λx.N
    Context inner = g.context();
    inner.emplace_back("x", sigma);
    const Term m = *gen::term(inner, tau, 2), n = *gen::term(inner, tau, 2);
    const Env<double> env = env_of(g);
    const V lambda_of_sum = V::function([m, n, env, dc](const V& v) {
      const Env<double> e = extend<double>(env, "x", v);
      return model::sum(denote<double>(m, e, dc), denote<double>(n, e, dc));
    });
    return check(lambda_of_sum, "Λ(|M| + |N|)", lam("x", sigma, sum(m, n)), "lambda-sum");
  }
  case 1: { // T(M + N) := T M + T N   (𝒯 additive, Thm 3.10 L125)
    const Term m = *gen::term(g.context(), arrow, 2), n = *gen::term(g.context(), arrow, 2);
    return guarded([&] {
      return check(model::pushforward(model::sum(meaning(m), meaning(n)), dc.diff), "𝒯(|M| + |N|)",
                   push(sum(m, n)), "push-sum");
    });
  }
  case 2: { // (M + N) P := M P + N P   (ev linear in the function, L91)
    const Term m = *gen::term(g.context(), arrow, 2), n = *gen::term(g.context(), arrow, 2);
    const Term p = *gen::term(g.context(), sigma, 2);
    return guarded([&] {
      return check(model::sum(meaning(m), meaning(n))(meaning(p)), "ev∘⟨|M| + |N|, |P|⟩",
                   app(sum(m, n), p), "operator-sum");
    });
  }
  case 3: { // ⟨M, N⟩ := ι1 M + ι2 N, |⟨M,N⟩| = ⟨|M|, |N|⟩ (L293)
    const Term m = *gen::term(g.context(), sigma, 2), n = *gen::term(g.context(), tau, 2);
    return guarded(
        [&] { return check(V::pair(meaning(m), meaning(n)), "⟨|M|, |N|⟩", pair(m, n), "pair"); });
  }
  default: { // T 0 := 0 (𝒯 0 = 0, Thm 3.10) and λx.0 ≡ ι_k 0 ≡ π_k 0 ≡ 0 N ≡ 0 (spec §2.3)
    const Term zero_arrow = zero(arrow);
    for (const Term& b : {lam("x", sigma, zero(tau)), push(zero_arrow), inj(1, arrow, zero(sigma)),
                          proj(1, zero(product_type(sigma, tau))), app(zero_arrow, zero(sigma))})
      if (!b.is_zero())
        return on(TrialResult::fail("a sugar form of 0 is not the empty bag: " + print(b)), b,
                  {"push-zero"});
    return guarded([&] {
      return check(model::pushforward(model::zero<double>(model_type(arrow)), dc.diff), "𝒯(0)",
                   push(zero_arrow), "push-zero");
    });
  }
  }
}

// ---- cost: tree_size(T_x M) ≤ the size Fig. 4 implies (spec §9.6; tx_cost.hpp) ----
TrialResult tx_size_bound_of(const Opened& in, const PropertyContext& context) {
  const Term& m = in.m;
  const Term t = tx(context, in.x, in.sigma, m);
  constexpr long cap = 1L << 50;
  const long measured = tree_size(t, cap);
  const TxSizeBound bound = tx_size_bound(in.x, m);
  if (measured >= cap) return on(TrialResult::discard("blow-up"), m);
  if (static_cast<double>(measured) <= bound.tree_size) return on(TrialResult::pass(), m);
  TrialResult r = TrialResult::fail(
      fmt::format("T_x M has {} tree nodes; Fig. 4 with the sugar implies at most {}", measured,
                  bound.tree_size));
  r.expected = reports::ComputedValue{"bound (tx_cost.hpp)", fmt::format("{}", bound.tree_size)};
  r.actual = reports::ComputedValue{"tree_size(T_x M)", fmt::format("{}", measured)};
  return on(r, m);
}
TrialResult tx_size_bound_property(const PropertyContext& context) {
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Type rho = *rc::gen::elementOf(gen::type_pool());
  return tx_size_bound_of({"x", sigma, *gen::term({{"y", rho}, {"x", sigma}}, tau, 3)}, context);
}

} // namespace

std::vector<PropertyDef> lemma_properties() {
  std::vector<PropertyDef> all = {
      def("diamond-semantics", "soundness",
          "⟦M ⬦ N⟧ = (f′ a + π1(𝒯 f (a′, a)), f a) with (f′, f) = ⟦M⟧, (a′, a) = ⟦N⟧ (probing)",
          "seed 004, Lemma 5.3, L299-307, eq. (3) L115-120; spec SEM-3, MOD-10", diamond_semantics),
      def("substitution-lemma", "soundness",
          "⟦M[P/x]⟧γ = ⟦M⟧(γ, x ↦ ⟦P⟧γ), P a term, a sum or 0 (probing)",
          "seed 004, Lemma 5.4, L309-313, Fig. 2 L195-203; spec SEM-4", substitution_lemma),
      def("sugar-soundness", "soundness",
          "λx.(M+N), T(M+N), (M+N) P, ⟨M,N⟩ and T 0 mean what the distributed terms mean",
          "seed 004 L165-185, L293, Thm 3.10 L125; spec SEM-11, MOD-11", sugar_soundness),
      def("tx-size-bound", "cost",
          "the tree size of T_x M is at most the size the Fig. 4 clauses with the sugar imply",
          "seed 004 Fig. 4 L211-218, conjecture L32/L353; spec §9.6", tx_size_bound_property),
  };
  // bounded-exhaustive: an enumerated closed function λy1:R. M gives T_y1 M (enumeration.hpp)
  all.back().check_input = of_opened_function(tx_size_bound_of);
  return all;
}

} // namespace adsem::perturbative
