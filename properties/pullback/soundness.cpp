// Soundness properties (spec §6 P1, P2, P7, P8, P9, P20, P21; seed 000 Thm. 4.6 L473-476 with its
// proof L928-1160, Lemma 4.4 L464-467, Lemma 4.5 L469). The model (semantics/pullback/
// denotation.hpp) never runs the rules; values are compared by probing (§5.5).
#include <stdexcept>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/core/sum_compare.hpp"
#include "properties/pullback/bodies.hpp"
#include "properties/pullback/frontend.hpp"
#include "properties/pullback/support.hpp"
#include "properties/pullback/user_rules.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/substitution.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::bodies {

using namespace support;

namespace {

Term mixed_query_or_term() {
  switch (*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 6))) {
  case 0:
  case 1:
    return (*gen::first_order_query()).term();
  case 2:
    return (*gen::functional_query()).term();
  case 3:
    return (*gen::symbolic_query()).term();
  default:
    return *gen::closed_term();
  }
}

Type euclid_type() {
  static const std::vector<Type> pool = {real_type(), real_power(2), real_power(3)};
  return *rc::gen::elementOf(pool);
}

V random_point(const Type& t, std::mt19937_64& rng) {
  return random_model_value(t, rng);
}

Term subterm(const Term& t, const std::vector<int>& path) {
  Term at = t;
  for (const int i : path)
    at = at->kids[static_cast<std::size_t>(i)];
  return at;
}

struct Observed {
  Term before;
  Step step;
  bool premise;
};

} // namespace

// P1, Thm. 4.6(2) (L473-476; proof L928-1160): every step, in any context, premise steps on their
// auxiliary terms included (fresh ω', b instantiated by random model values), preserves ⟦·⟧.
TrialResult soundness_of_steps_of(const Term& t, std::uint64_t seed,
                                  const PropertyContext& context) {
  return guarded(t, [&] {
    Machine m(rules_for(context), run_options(context));
    std::vector<Observed> seen;
    int premises = 0;
    constexpr std::size_t observed_steps = 28;
    constexpr int observed_premise_steps = 8;
    m.observe(
        [&](const Term& before, const Step& s, bool premise) {
          if (premise && ++premises > observed_premise_steps) return;
          if (seen.size() < observed_steps) seen.push_back({before, s, premise});
        },
        [&] { return seen.size() < observed_steps; },
        // the premise steps after these are not kept: their runs need not be stepped one by one
        [&] { return premises < observed_premise_steps && seen.size() < observed_steps; });
    m.normalise(t);
    std::mt19937_64 rng(seed);
    // A step leaves the nodes it did not touch shared, and its result is the next step's term:
    // closed subterms' values and their closures' results at the probes are kept over the run
    // (one context, so one tag source; closed_values.hpp).
    ClosedValues closed;
    CheckedShapes checked;
    DenoteContext dc;
    dc.closed_values = &closed;
    dc.checked_shapes = &checked; // a stage's checked point, not walked again by the next stage
    // The term after a step is the term before the next one (one node): its free variables are
    // not looked up again.
    Term previous_result;
    std::map<std::string, Type> previous_free;
    for (const Observed& o : seen) {
      const Type ty = type_of(o.before);
      if (is_any(ty)) continue;
      auto free = o.before == previous_result ? std::move(previous_free) : free_var_types(o.before);
      auto after = free_var_types(o.step.result);
      for (const auto& kv : after)
        free.insert(kv);
      previous_result = o.step.result;
      previous_free = std::move(after);
      const Env<double> env = random_env(free, rng);
      const V a = denote_in(o.before, env, dc);
      const V b = denote_in(o.step.result, env, dc);
      TrialResult r = compare(a, "⟦before⟧", b, "⟦after " + o.step.rule + "⟧", ty, rng(), context);
      if (r.kind != TrialResult::Kind::pass) {
        if (r.kind == TrialResult::Kind::fail) {
          r.reason = fmt::format("{}step {}: {} — before: {}", o.premise ? "premise " : "",
                                 o.step.rule, r.reason, print(subterm(o.before, o.step.path)));
          r.trace = {o.step.rule};
        }
        return on(r, t);
      }
    }
    return on(TrialResult::pass(), t);
  });
}
TrialResult soundness_of_steps(const PropertyContext& context) {
  const auto target = targeted_term(context);
  const Term t = target ? *target : mixed_query_or_term();
  const std::uint64_t seed = draw_seed();
  return soundness_of_steps_of(t, seed, context);
}

// P2, Thm. 4.6(1) (L475): A-normalisation preserves ⟦·⟧ (compact and literal ANF, ID-9), and both
// variants give the same gradient. ANF is the rules' own (their A* entry).
TrialResult soundness_of_anf_at(const gen::Query& q, std::uint64_t seed,
                                const PropertyContext& context) {
  return guarded(q.term(), [&] {
    const Type ft = arrow(q.sigma, q.tau);
    Rules a = rules_for(context), b = a;
    b.bind_atoms = true;
    const auto anf_of = [&](bool literal) {
      return lam(q.y, q.sigma, anf_by_rules(a, literal, q.y, q.sigma, q.body, q.omega));
    };
    const V f = denote_in(lam(q.y, q.sigma, q.body), nullptr);
    const V compact = denote_in(anf_of(false), nullptr);
    const V literal = denote_in(anf_of(true), nullptr);
    TrialResult r = compare(f, "⟦λy.P⟧", compact, "⟦λy.ANF(P)⟧", ft, seed, context);
    if (r.kind != TrialResult::Kind::pass) return on(r, q.body);
    r = compare(f, "⟦λy.P⟧", literal, "⟦λy.ANF_literal(P)⟧", ft, seed, context);
    if (r.kind != TrialResult::Kind::pass) return on(r, q.body);
    const Term nf1 = normalise(q.term(), a, run_options(context)).result;
    const Term nf2 = normalise(q.term(), b, run_options(context)).result;
    if (nf1->kind == Kind::covec && nf2->kind == Kind::covec)
      r = compare_vectors(nf1->vec.dense(), "gradient (compact ANF)", nf2->vec.dense(),
                          "gradient (literal ANF)", CheckKind::exact_value, context);
    else
      r = compare(denote_in(nf1, nullptr), "compact", denote_in(nf2, nullptr), "literal",
                  dual(q.sigma), seed, context);
    return on(r, q.term());
  });
}
TrialResult soundness_of_anf(const PropertyContext& context) {
  const gen::Query q = *gen::first_order_query(false, 3);
  const std::uint64_t seed = draw_seed();
  return soundness_of_anf_at(q, seed, context);
}

// P7, Lemma 4.4(1) (L464-466; proof L879-912): x ∈ lin(S) makes a ↦ ⟦S⟧⟨γ,a⟩ linear; for lin
// (strict, the generated S) and lin⁺ (its A-normal form, ID-3).
TrialResult linearity(const PropertyContext& context) {
  const Type sigma = euclid_type(), rho = euclid_type();
  const Term s = *gen::linear_term("x", sigma, rho);
  const std::uint64_t seed = draw_seed();
  return guarded(s, [&] {
    if (!lin(s, LinMode::strict).contains("x"))
      return on(TrialResult::fail("generator: x is not in lin(S)"), s);
    const Term normal = anf(s);
    if (!lin(normal, LinMode::plus).contains("x"))
      return on(TrialResult::fail("x is not in lin⁺(ANF(S)) = lin⁺ of " + print(normal)), s);
    std::mt19937_64 rng(seed);
    const double k = std::uniform_real_distribution<double>(-2, 2)(rng);
    const V a = random_point(sigma, rng), b = random_point(sigma, rng);
    for (const Term& body : {s, normal}) {
      const V f = denote_in(lam("x", sigma, body), nullptr);
      TrialResult r = compare(model::sum(f(a), f(b)), "f(a) + f(b)", f(model::sum(a, b)),
                              "f(a + b)", rho, seed, context);
      if (r.kind == TrialResult::Kind::pass)
        r = compare(model::scale(model::Dual<double>(k), f(a)), "k f(a)",
                    f(model::scale(model::Dual<double>(k), a)), "f(k a)", rho, seed, context);
      if (r.kind == TrialResult::Kind::pass)
        r = compare(model::zero<double>(model_type(rho)), "0",
                    f(model::zero<double>(model_type(sigma))), "f(0)", rho, seed, context);
      if (r.kind != TrialResult::Kind::pass) return on(r, s);
    }
    return on(TrialResult::pass(), s);
  });
}

// P8, Lemma 4.4(2) (L467): a term of dual type denotes a linear functional.
TrialResult dual_linearity(const PropertyContext& context) {
  const Term d = *gen::dual_term();
  const std::uint64_t seed = draw_seed();
  return guarded(d, [&] {
    const Type sigma = type_of(d)->left;
    std::mt19937_64 rng(seed);
    const double k = std::uniform_real_distribution<double>(-2, 2)(rng);
    const V a = random_point(sigma, rng), b = random_point(sigma, rng);
    const V phi = denote_in(d, nullptr);
    TrialResult r = compare(model::sum(phi(a), phi(b)), "φ(a) + φ(b)", phi(model::sum(a, b)),
                            "φ(a + b)", real_type(), seed, context);
    if (r.kind == TrialResult::Kind::pass)
      r = compare(model::scale(model::Dual<double>(k), phi(a)), "k φ(a)",
                  phi(model::scale(model::Dual<double>(k), a)), "φ(k a)", real_type(), seed,
                  context);
    return on(r, d);
  });
}

// P9, Lemma 4.5 (L469; proof L914-926): ⟦S[P/x]⟧ = ⟦S⟧ ∘ ⟨Id, ⟦P⟧⟩, into bodies, applications of
// pullbacks and pullback bodies.
TrialResult substitution(const PropertyContext& context) {
  const gen::Query q = *gen::first_order_query(false, 2);
  const Term shape = *gen::body("s", q.sigma, q.sigma);
  const std::uint64_t seed = draw_seed();
  return guarded(q.term(), [&] {
    const Term p = substitute(shape, "s", q.point); // a closed term of type σ
    const std::string x = "xs";
    const Term xv = var(x, q.sigma);
    const std::vector<Term> cases = {
        substitute(q.body, q.y, xv),                      // into a body
        app(pullback(q.y, q.sigma, q.body, q.omega), xv), // an argument of a pullback
        pullback("w", real_type(), substitute(q.body, q.y, xv), q.omega), // into a pullback body
    };
    const V pv = denote_in(p, nullptr);
    for (const Term& s : cases) {
      const V lhs = denote_in(substitute(s, x, p), nullptr);
      const V rhs = denote_in(s, extend<double>(nullptr, x, pv));
      TrialResult r = compare(rhs, "⟦S⟧⟨x ↦ ⟦P⟧⟩", lhs, "⟦S[P/x]⟧", type_of(s), seed, context);
      if (r.kind != TrialResult::Kind::pass) return on(r, s);
    }
    return on(TrialResult::pass(), q.term());
  });
}

// P21 (spec §2.3 ≡, [D]): S[P₁+P₂/y] ≡ S[P₁/y] + S[P₂/y] and S[0/y] ≡ 0 for y ∈ lin(S) (ID-6).
TrialResult sum_law(const PropertyContext& context) {
  const Type sigma = euclid_type(), rho = euclid_type();
  const Term s = *gen::linear_term("x", sigma, rho);
  const std::uint64_t seed = draw_seed();
  return guarded(s, [&] {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> k(-8, 8);
    std::vector<double> a, b;
    for (std::size_t i = 0; i < dim(sigma); ++i) {
      a.push_back(k(rng) / 4.0);
      b.push_back(k(rng) / 4.0);
    }
    const Term p1 = numeral_tuple(sigma, a), p2 = numeral_tuple(sigma, b);
    const V both = denote_in(substitute(s, "x", sum({p1, p2})), nullptr);
    const V split = model::sum(denote_in(substitute(s, "x", p1), nullptr),
                               denote_in(substitute(s, "x", p2), nullptr));
    TrialResult r =
        compare(split, "⟦S[P₁/x]⟧ + ⟦S[P₂/x]⟧", both, "⟦S[P₁+P₂/x]⟧", rho, seed, context);
    if (r.kind == TrialResult::Kind::pass)
      r = compare(model::zero<double>(model_type(rho)), "0",
                  denote_in(substitute(s, "x", zero(sigma)), nullptr), "⟦S[0/x]⟧", rho, seed,
                  context);
    return on(r, s);
  });
}

// P20 [D] (transpose identity of rules 5 / 5⁺; §5.5 dot-product test): for every step
// (λv.B)*·c* → c'* of a run, ⟨c', u⟩ = ⟨c, ⟦B⟧(u)⟩ for random u.
TrialResult dot_product_of(const Term& t, std::uint64_t seed, const PropertyContext& context) {
  return guarded(t, [&] {
    Machine m(rules_for(context), run_options(context));
    std::vector<std::pair<Term, Term>> transposes;
    m.observe([&](const Term& before, const Step& s, bool) {
      if (s.rule == "5" || s.rule == "5+")
        transposes.emplace_back(subterm(before, s.path), subterm(s.result, s.path));
    });
    m.normalise(t);
    // A query whose reduction takes no transpose step tests nothing here: a discard, not a pass.
    if (transposes.empty()) return on(TrialResult::discard("no-transpose-step"), t);
    std::mt19937_64 rng(seed);
    for (const auto& [redex, out] : transposes) {
      const Type sigma = redex->type;
      const Term& c = redex->kids[1];
      for (int probe = 0; probe < 3; ++probe) {
        const V u = random_point(sigma, rng);
        const std::vector<double> uf = model::flatten_primal(u);
        const V bu = denote_in(redex->kids[0], extend<double>(nullptr, redex->name, u));
        const std::vector<double> bf = model::flatten_primal(bu);
        if (out->vec.size() < uf.size() || c->vec.size() < bf.size())
          throw std::out_of_range("a covector shorter than its dual vector");
        // two dot products: compared relative to their terms (docs/model.md, "Tolerance policy")
        const SumWithMagnitude lhs = dot_with_magnitude(out->vec.dense(), uf);
        const SumWithMagnitude rhs = dot_with_magnitude(c->vec.dense(), bf);
        TrialResult r = props::compare_sums(rhs, "⟨c, B u⟩", lhs, "⟨Bᵀc, u⟩", CheckKind::derivative,
                                            context.tolerance(CheckKind::derivative));
        if (r.kind != TrialResult::Kind::pass) {
          r.reason += " at the transpose of " + print(redex);
          return on(r, t);
        }
      }
    }
    return on(TrialResult::pass(), t);
  });
}
TrialResult dot_product(const PropertyContext& context) {
  const gen::Query q = *gen::first_order_query(false, 3);
  const std::uint64_t seed = draw_seed();
  return dot_product_of(q.term(), seed, context);
}

} // namespace adsem::pullback::bodies
