// Model-side checks of single premises and of final answers (spec §6 P12, P18; seed 000 proofs
// of rules 16-20 L1060-1122 via Hahn–Banach, Remark 3.5 L275).
#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/pullback/bodies.hpp"
#include "properties/pullback/frontend.hpp"
#include "properties/pullback/support.hpp"
#include "properties/pullback/user_rules.hpp"
#include "semantics/pullback/strategy.hpp"
#include "semantics/pullback/translation.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback::bodies {

using namespace support;

// P12 (implicit in the proofs of rules 16-20, L1060-1122): every Jacobian body S a JAC premise
// extracts from (λu.S)*·(ω' W) is the derivative: ⟦S⟧⟨γ,v⟩ = D[⟦M⟧⟨γ,−⟩]⟨v, ⟦V⟧⟩ (0 when the
// premise normalises to 0). Localises a wrong rule to one premise.
TrialResult premise_jacobian(const PropertyContext& context) {
  const int k = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 3));
  const Term t = k == 0   ? (*gen::functional_query()).term()
                 : k == 1 ? (*gen::symbolic_query()).term()
                          : (*gen::first_order_query(false, 3)).term();
  const std::uint64_t seed = draw_seed();
  return guarded(t, [&] {
    struct Seen {
      std::string y, v;
      Type sigma;
      Term m, value, s;
    };
    std::vector<Seen> seen;
    RunOptions o;
    o.fuel = context.option_int("fuel", 20'000);
    Machine machine(rules_for(context), o);
    machine.observe_premises([&](const std::string& y, const Type& sigma, const Term& m,
                                 const Term& value, const std::string& v, const Term& s) {
      if (seen.size() < 6) seen.push_back({y, v, sigma, m, value, s});
    });
    machine.normalise(t);
    std::mt19937_64 rng(seed);
    for (const Seen& p : seen) {
      const Type tau = type_of(p.m);
      if (is_any(tau)) continue;
      const Env<double> env =
          random_env_over({lam(p.y, p.sigma, p.m), p.value, lam(p.v, p.sigma, p.s)}, rng);
      const V f = denote_in(lam(p.y, p.sigma, p.m), env);
      const V point = denote_in(p.value, env);
      const V u = random_model_value(p.sigma, rng);
      const DenoteContext dc;
      const V expected = model::directional_derivative(f, point, u, dc.diff);
      const V actual = denote_in(p.s, extend<double>(env, p.v, u));
      TrialResult r = compare(expected, "D⟦λy.M⟧(V)·v (model)", actual, "⟦S⟧⟨v⟩ (premise)", tau,
                              rng(), context);
      if (r.kind != TrialResult::Kind::pass) {
        if (r.kind == TrialResult::Kind::fail)
          r.reason += " — premise JAC(" + p.y + ", " + print(p.m) + ", " + print(p.value) + ")";
        return on(r, t);
      }
    }
    return on(TrialResult::pass(), t);
  });
}

// P18 [D] adequacy at ground type: a closed term of Euclidean type, or of σ* with σ Euclidean,
// whose normal form is a numeral tuple or a covector literal N has ⟦N⟧ = ⟦M⟧. Normal forms that
// are not literals (stuck terms, Remark 3.6) are counted as discards "stuck-normal-form".
TrialResult adequacy_of(const Term& t, const std::function<std::uint64_t()>& seed,
                        const PropertyContext& context) {
  return guarded(t, [&] {
    const Type ty = type_of(t);
    RunOptions o;
    o.fuel = context.option_int("fuel", 20'000);
    o.rule_counts = false; // only the normal form is read
    const Term nf = normalise(t, rules_for(context), o).result;
    std::vector<double> got, want;
    if (is_euclidean(ty) && is_numeral_tuple(nf)) {
      flatten_numerals(nf, got);
      want = model::flatten_primal(denote_in(t, nullptr));
    } else if (is_dual(ty) && is_euclidean(ty->left) &&
               (nf->kind == Kind::covec || nf->kind == Kind::zero)) {
      got = nf->kind == Kind::covec ? nf->vec.dense() : std::vector<double>(dim(ty->left), 0.0);
      want = coefficients(denote_in(t, nullptr), ty->left);
    } else if (is_euclidean(ty) || (is_dual(ty) && is_euclidean(ty->left))) {
      return on(TrialResult::discard("stuck-normal-form"), t);
    } else {
      return on(compare(denote_in(t, nullptr), "⟦M⟧", denote_in(nf, nullptr), "⟦NF(M)⟧", ty, seed(),
                        context),
                t);
    }
    return on(compare_vectors(want, "⟦M⟧", got, "the literal M reduces to", CheckKind::exact_value,
                              context),
              t);
  });
}
TrialResult adequacy(const PropertyContext& context) {
  const auto target = targeted_term(context);
  const Term t = target ? *target
                 : *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 2)) == 0
                     ? (*gen::first_order_query(false, 3)).term()
                     : *gen::closed_term();
  return adequacy_of(t, draw_seed, context);
}

} // namespace adsem::pullback::bodies

namespace adsem::pullback::bodies {

Term every_template_term() {
  const int k = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 4));
  return k == 0   ? (*gen::functional_query()).term()
         : k == 1 ? (*gen::symbolic_query()).term()
         : k == 2 ? (*gen::first_order_query(false, 3)).term()
                  : *gen::closed_term();
}

// P13, Lemma 5.1(2) (L535-538, proof L1162-1198): the translation into the differential
// λ-calculus preserves the denotation, ⟦P⟧ = ⟦P_t⟧, on generated terms of every template
// (dual maps, covectors and pullbacks translated away, App. D L833-844).
TrialResult translation_of(const Term& t, std::uint64_t seed, const PropertyContext& context) {
  return guarded(t, [&] {
    std::mt19937_64 rng(seed);
    const Env<double> env = random_env(free_var_types(t), rng);
    const ld::DTerm d = ld::translate(t);
    return on(compare(denote_in(t, env), "⟦P⟧ (direct model)", ld::denote(d, env, {}),
                      "⟦P_t⟧ (𝓛_D)", type_of(t), rng(), context),
              t);
  });
}
TrialResult translation(const PropertyContext& context) {
  const Term t = every_template_term();
  const std::uint64_t seed = draw_seed();
  return translation_of(t, seed, context);
}

} // namespace adsem::pullback::bodies
