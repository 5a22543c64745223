// The tangent-bundle functor T f = ⟨D f, f ∘ π2⟩ (seed 004, L94; §5.1 of the spec) as the
// CALCULUS computes it: each property builds a term with T, normalises it with the rules of the
// active mutant, and compares the denotation of the normal form with what the model's own 𝒯 says
// (the model never calls this calculus's T_x or reduction).
//   functor-chain-rule    T(g∘f) = Tg∘Tf and T(id) = id            (L38, L94; spec MOD-6, AD-4)
//   preserves-products    T⟨f,g⟩ = ψ∘⟨Tf,Tg⟩, T π_k = π_k × π_k    (Lemma 3.8 L110, Lemma 3.7 L95)
//   tangent-linear        π1 (T s (v + w, a)) = π1 (T s (v,a)) + π1 (T s (w,a)), π1 (T s (0,a)) = 0
//                                                                   (D2, L78-83; spec AD-3)
//   ad-in-enclosure       D(f, e_i, a) by reduction lies in the interval enclosure of ∂_i f over a
//                         certified box around a, and f a in that of f  (spec AD-1; design.md
//                         "Three oracles")
//   second-derivative-symmetry
//                         D(λy. D(f, v, y), w, a) = D(λy. D(f, w, y), v, a), each by reduction
//                         (axiom D7 L78-83 at the term level; spec AD-6)
#include <random>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/perturbative/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/perturbative/mutants.hpp"
#include "properties/perturbative/support.hpp"
#include "properties/perturbative/user_rules.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/probe.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

using namespace support;

// A closed function term of type ρ → σ, at depth 2 (T_x of deeper terms blows up, spec §9.6).
Term closed_function(const Type& rho, const Type& sigma) {
  return *gen::term({}, arrow_type(rho, sigma), 2);
}

// A closed f : ρ → τ with two directions v, w and a point a in ρ, and a probe seed, drawn in this
// order (tangent-linear and second-derivative-symmetry).
struct TwoDirections {
  Type rho, tau;
  Term f, v, w, a;
  std::uint64_t seed;
};
TwoDirections draw_two_directions() {
  TwoDirections d;
  d.rho = *rc::gen::elementOf(gen::type_pool());
  d.tau = *rc::gen::elementOf(gen::type_pool());
  d.f = closed_function(d.rho, d.tau);
  d.v = *gen::term({}, d.rho, 1);
  d.w = *gen::term({}, d.rho, 1);
  d.a = *gen::term({}, d.rho, 1);
  d.seed = probe_seed();
  return d;
}

// ⟦NF(m)⟧: the calculus's answer, as a model value.
V normal_form_meaning(const Term& m, const PropertyContext& context) {
  const Term nf = normalise(m, *semantics_for(context).rules, run_options(context)).result;
  return denote_closed(nf, context);
}

// ---- T(g∘f) = Tg∘Tf, T(id) = id: T is a functor (L38: "preservation of composition is the
// chain rule"; L94) ----
TrialResult functor_chain_rule(const PropertyContext& context) {
  const Type rho = *rc::gen::elementOf(gen::type_pool());
  const bool identity = uniform(4) == 0;
  const std::uint64_t seed = probe_seed();
  const Term x = var("x", rho);
  if (identity) {
    const Term term = push(lam("x", rho, x));
    return guarded([&] {
      const V lhs = normal_form_meaning(term, context);
      const V id = V::function([](const V& p) { return p; });
      return on(compare_values(id, "id on Tρ", lhs, "⟦NF(T(λx.x))⟧", term.type, seed, context),
                term, {"identity"});
    });
  }
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Term f = closed_function(rho, sigma);
  const Term g = closed_function(sigma, tau);
  const Term term = push(lam("x", rho, app(g, app(f, x)))); // T(λx. g (f x)) = T(g∘f)
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const V tf = model::pushforward(denote<double>(f, nullptr, dc), dc.diff);
    const V tg = model::pushforward(denote<double>(g, nullptr, dc), dc.diff);
    const V composed = V::function([tf, tg](const V& p) { return tg(tf(p)); });
    const V lhs = normal_form_meaning(term, context);
    return on(compare_values(composed, "𝒯g ∘ 𝒯f (model)", lhs, "⟦NF(T(λx. g (f x)))⟧", term.type,
                             seed, context),
              term, {"composition"});
  });
}

// ---- T⟨f, g⟩ = ψ∘⟨Tf, Tg⟩ (Lemma 3.8, L110), ψ((a′,a),(b′,b)) = ((a′,b′),(a,b)); and T π_k =
// π_k × π_k (π_k linear, Lemma 3.7, L95) ----
TrialResult preserves_products(const PropertyContext& context) {
  const Type rho = *rc::gen::elementOf(gen::type_pool());
  const Type s1 = *rc::gen::elementOf(gen::type_pool());
  const Type s2 = *rc::gen::elementOf(gen::type_pool());
  const bool projection = uniform(4) == 0;
  const std::uint64_t seed = probe_seed();
  if (projection) {
    const int k = 1 + uniform(2);
    const Type product = product_type(s1, s2);
    const Term term = push(lam("p", product, proj(k, var("p", product))));
    return guarded([&] {
      const auto index = static_cast<std::size_t>(k - 1);
      const V expected = V::function(
          [index](const V& p) { return V::pair(p.first().item(index), p.second().item(index)); });
      return on(compare_values(expected, "π_k × π_k", normal_form_meaning(term, context),
                               "⟦NF(T(λp. π_k p))⟧", term.type, seed, context),
                term, {"projection"});
    });
  }
  const Term f = closed_function(rho, s1);
  const Term g = closed_function(rho, s2);
  const Term x = var("x", rho);
  const Term term = push(lam("x", rho, pair(app(f, x), app(g, x))));
  return guarded([&] {
    const DenoteContext dc = denote_context(context);
    const V tf = model::pushforward(denote<double>(f, nullptr, dc), dc.diff);
    const V tg = model::pushforward(denote<double>(g, nullptr, dc), dc.diff);
    const V expected = V::function([tf, tg](const V& p) {
      const V a = tf(p), b = tg(p);
      return V::pair(V::pair(a.first(), b.first()), V::pair(a.second(), b.second()));
    });
    return on(compare_values(expected, "ψ∘⟨𝒯f, 𝒯g⟩ (model)", normal_form_meaning(term, context),
                             "⟦NF(T(λx. ⟨f x, g x⟩))⟧", term.type, seed, context),
              term, {"pairing"});
  });
}

// ---- D2 (L78-83): the tangent part is additive in the perturbation, and 0 at perturbation 0 ----
TrialResult tangent_linear(const PropertyContext& context) {
  const TwoDirections drawn = draw_two_directions();
  const auto& [rho, tau, s, v, w, a, seed] = drawn;
  const Semantics& semantics = semantics_for(context);
  const Rules& rules = *semantics.rules;
  const Term t_sum =
      semantics.derivative(s, sum(v, w), a, context.rule_counter.get()); // π1 (T s (v + w, a))
  return guarded([&] {
    const auto meaning = [&](const Term& tangent) {
      const Term nf = normalise(semantics.derivative(s, tangent, a, context.rule_counter.get()),
                                rules, run_options(context))
                          .result;
      return denote_closed(nf, context);
    };
    const V at_zero = meaning(zero(rho));
    TrialResult r = compare_values(model::zero<double>(model_type(tau)), "0", at_zero,
                                   "⟦NF(π1 (T s (0, a)))⟧", tau, seed, context);
    if (r.kind != TrialResult::Kind::pass) return on(r, t_sum, {"zero-tangent"});
    const V additive = model::sum(meaning(v), meaning(w));
    return on(compare_values(additive, "⟦NF(π1 (T s (v, a)))⟧ + ⟦NF(π1 (T s (w, a)))⟧",
                             meaning(sum(v, w)), "⟦NF(π1 (T s (v + w, a)))⟧", tau, seed, context),
              t_sum);
  });
}

// ---- AD-1 against the interval oracle: forward AD by reduction lies in the certified enclosure
// of the model on Interval / Dual<Interval> (design.md "Three oracles") ----
TrialResult ad_in_enclosure(const PropertyContext& context) {
  const bool binary = uniform(3) == 0;
  const Type R = real_type();
  const Type domain = binary ? product_type(R, R) : R;
  const Term f = function_input(context, domain);
  const std::size_t n = binary ? 2 : 1;
  std::vector<double> at;
  for (std::size_t i = 0; i < n; ++i)
    at.push_back(*rc::gen::resize(100, rc::gen::inRange(-250, 251)) / 100.0);
  const auto ground = [&](const std::vector<double>& xs) {
    return binary ? pair(numeral(xs[0]), numeral(xs[1])) : numeral(xs[0]);
  };
  const std::vector<std::string> tags = {binary ? "binary" : "unary"};
  return guarded([&] {
    using I = model::Interval;
    using VI = model::Value<I>;
    const DenoteContext dc = denote_context(context);
    const VI fi = denote<I>(f, nullptr, dc);
    const model::VectorFunction<model::Dual<I>> on_box =
        [fi, binary](std::span<const model::Dual<I>> xs) {
          const VI argument = binary ? VI::pair(VI(xs[0]), VI(xs[1])) : VI(xs[0]);
          return model::flatten(fi(argument));
        };
    const model::Certificate c =
        model::certify(at, [&](const model::Box& box) { (void)on_box(model::as_duals(box)); });
    if (c.status == model::CertificateStatus::outside)
      return on(TrialResult::discard("undefined-point"), f, tags);
    if (c.status == model::CertificateStatus::uncertified)
      return on(TrialResult::discard(c.reason.empty() ? "domain-boundary" : c.reason), f, tags);
    const model::Enclosure e = model::enclose(on_box, c.box, dc.diff);
    const Semantics& semantics = semantics_for(context);
    const Rules& rules = *semantics.rules;
    const auto reduce = [&](const Term& m) -> std::optional<double> {
      const Term nf = normalise(m, rules, run_options(context)).result;
      if (!is_numeric_value(nf)) return std::nullopt;
      return numeric_reals(nf).front();
    };
    // The operational side rounds in double (its own evaluation order); allow the exact-value
    // tolerance beyond the enclosure's endpoints for that, and nothing else.
    const Tolerance tol = context.tolerance(CheckKind::exact_value);
    std::vector<std::pair<std::string, std::pair<I, Term>>> checks;
    checks.push_back({"f(a)", {e.value.at(0), app(f, ground(at))}});
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<double> unit(n, 0.0);
      unit[j] = 1.0;
      checks.push_back({fmt::format("D(f, e{}, a)", j + 1),
                        {e.jacobian(0, j), semantics.derivative(f, ground(unit), ground(at),
                                                                context.rule_counter.get())}});
    }
    for (const auto& [label, check] : checks) {
      const auto value = reduce(check.second);
      if (!value) return on(TrialResult::fail(label + " did not normalise to a numeral"), f, tags);
      if (!std::isfinite(*value))
        return on(TrialResult::discard(props::discards::overflow), f, tags);
      if (!model::encloses_rounded(check.first, *value, tol)) {
        TrialResult r = TrialResult::fail(fmt::format("{} = {} by reduction lies outside {}", label,
                                                      *value, model::to_string(check.first)));
        r.expected = reports::ComputedValue{"interval enclosure", model::to_string(check.first)};
        r.actual = reports::ComputedValue{label + " by reduction", fmt::format("{}", *value)};
        return on(r, f, tags);
      }
    }
    return on(TrialResult::pass(), f, tags);
  });
}

// ---- AD-6: the second derivative is symmetric (axiom D7, L78-83), built with nested T at the
// term level: the derivative along w of the derivative along v equals the one with v and w
// swapped. Both sides are normalised by the calculus and compared with each other, so the model
// only reads the two normal forms; nested T is where perturbations of the two levels meet
// (perturbation confusion, seed 004 §1). ----
TrialResult second_derivative_symmetry(const PropertyContext& context) {
  const TwoDirections drawn = draw_two_directions();
  const auto& [rho, tau, f, v, w, a, seed] = drawn;
  const Semantics& semantics = semantics_for(context);
  // D(λy. D(f, inner, y), outer, a)
  const auto second = [&](const Term& inner, const Term& outer) {
    const Term y = var("y", rho);
    const Term first = lam("y", rho, semantics.derivative(f, inner, y, context.rule_counter.get()));
    return semantics.derivative(first, outer, a, context.rule_counter.get());
  };
  const Term vw = second(v, w);
  const Term wv = second(w, v);
  return guarded([&] {
    return on(compare_values(normal_form_meaning(vw, context), "⟦NF(D(λy. D(f, v, y), w, a))⟧",
                             normal_form_meaning(wv, context), "⟦NF(D(λy. D(f, w, y), v, a))⟧", tau,
                             seed, context),
              vw);
  });
}

} // namespace

std::vector<PropertyDef> functor_properties() {
  return {
      def("functor-chain-rule", "ad-correctness",
          "⟦NF(T(λx. g (f x)))⟧ = 𝒯⟦g⟧ ∘ 𝒯⟦f⟧ and ⟦NF(T(λx.x))⟧ = id (T is a functor; probing)",
          "seed 004 L38, L94 (T a functor; composition = chain rule); spec MOD-6, AD-4",
          functor_chain_rule),
      def("preserves-products", "ad-correctness",
          "⟦NF(T(λx.⟨f x, g x⟩))⟧ = ψ∘⟨𝒯⟦f⟧, 𝒯⟦g⟧⟩ and ⟦NF(T(λp. π_k p))⟧ = π_k × π_k",
          "seed 004, Lemma 3.8 L110, Lemma 3.7 L95; spec MOD-8", preserves_products),
      def("tangent-linear", "ad-correctness",
          "π1 (T s (v + w, a)) = π1 (T s (v, a)) + π1 (T s (w, a)) and π1 (T s (0, a)) = 0, each "
          "by reduction",
          "seed 004, Def 3.4 axiom D2 L78-83; spec AD-3", tangent_linear),
      def("ad-in-enclosure", "ad-correctness",
          "f a and D(f, e_i, a) by reduction lie in the Interval/Dual<Interval> enclosures of ⟦f⟧ "
          "over a certified box",
          "seed 004 L38, L84 (T f (v, a) = (J_f(a)·v, f a)); spec AD-1; design.md oracles",
          ad_in_enclosure),
      def("second-derivative-symmetry", "ad-correctness",
          "D(λy. D(f, v, y), w, a) = D(λy. D(f, w, y), v, a), each by reduction (nested T)",
          "seed 004, Def 3.4 axiom D7 L78-83; spec AD-6", second_derivative_symmetry),
  };
}

} // namespace adsem::perturbative
