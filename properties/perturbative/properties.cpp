// Properties of spec §6 (seed 004: Lemma 4.1 L271-277, Lemma 5.5 L316-338, Thm 5.6 L339-346;
// [OURS] adequacy, strategy agreement, finite differences, perturbation-confusion suite). Each
// body draws a well-typed term (generators/perturbative), runs the calculus (the rule table of the
// active mutant) and compares with the numeric model, which never uses this calculus's rules.
#include "properties/perturbative/properties.hpp"

#include <any>
#include <cmath>
#include <memory>
#include <optional>
#include <random>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "generators/perturbative/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/fd_compare.hpp"
#include "properties/perturbative/enumeration.hpp"
#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/mutants.hpp"
#include "properties/perturbative/support.hpp"
#include "properties/perturbative/user_rules.hpp"
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/perturbative/constants.hpp"
#include "semantics/perturbative/denotation.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "semantics/perturbative/substitution.hpp"
#include "semantics/perturbative/transform.hpp"
#include "syntax/perturbative/printer.hpp"
#include "syntax/perturbative/typecheck.hpp"

namespace adsem::perturbative {

namespace {

using namespace support;

// ---- SYN: parse/print round trip (spec §2.7) ----
TrialResult round_trip_of(const Term& m) {
  const std::string text = print(m);
  const Term back = parse_closed(text);
  TrialResult r = TrialResult::pass();
  if (!same_type(back.type, m.type))
    r = TrialResult::fail("re-parsed at type " + print_type(back.type));
  else if (canonical_key(back) != canonical_key(m))
    r = TrialResult::fail("re-parsed as a different term: " + print(back));
  return on(r, m);
}
TrialResult round_trip(const PropertyContext& context) {
  return round_trip_of(closed_input(context, gen::type_pool()));
}

// ---- SYN-4: subject reduction, Lemma 4.1(d) (L275), after EVERY small step ----
TrialResult subject_reduction_of(const Term& m, const PropertyContext& context) {
  // Crash isolation (campaign --isolate): name the input before running it, so that a trial
  // that crashes or hangs is reported with its term.
  context.report_input_lazily([m] { return std::pair{print(m), print(m)}; });
  return guarded([&] {
    const Rules& rules = *semantics_for(context).rules;
    Term current = m;
    std::vector<std::string> trace;
    for (long n = 0; n < run_options(context).fuel; ++n) {
      auto s = step(current, rules);
      if (!s) return on(TrialResult::pass(), m);
      trace.push_back(s->rule);
      // T_x output is exponential as a tree (spec §9.6): past the size cap every further step
      // (a whole-term walk plus a type check) costs seconds, so the trial is a counted discard,
      // as in the other T_x properties, not a hang.
      if (tree_size(s->result, tx_size_cap + 1) > tx_size_cap)
        return on(TrialResult::discard("blow-up"), m);
      const auto error = type_error(s->result, {}, constant_types());
      if (error || !same_type(s->result.type, m.type)) {
        TrialResult r = TrialResult::fail("after step " + std::to_string(n + 1) + " (" + s->rule +
                                          "): " + error.value_or("type changed"));
        r.trace = trace;
        return on(r, m);
      }
      current = s->result;
    }
    return on(TrialResult::discard("fuel"), m);
  });
}
TrialResult subject_reduction(const PropertyContext& context) {
  return subject_reduction_of(closed_input(context, gen::type_pool()), context);
}

// ---- SYN-2: T_x preserves typing, Lemma 4.1(b) (L273) ----
// Γ, x:σ ⊢ M : τ, Γ the other variables (the random terms' y : ρ; none in an enumerated one).
TrialResult tx_typing_of(const Context& others, const Opened& in, const PropertyContext& context) {
  const Term& m = in.m;
  const Type& tau = m.type;
  const Term t = tx(context, in.x, in.sigma, m);
  if (tree_size(t, tx_size_cap + 1) > tx_size_cap) return on(TrialResult::discard("blow-up"), m);
  Context tgamma = others;
  tgamma.emplace_back(in.x, tangent_type(in.sigma));
  const auto error = type_error(t, tgamma, constant_types());
  TrialResult r = TrialResult::pass();
  if (error)
    r = TrialResult::fail("T_x M ill-typed: " + *error);
  else if (!same_type(t.type, tangent_type(tau)))
    r = TrialResult::fail("T_x M : " + print_type(t.type) + ", not T(" + print_type(tau) + ")");
  return on(r, m);
}
TrialResult tx_typing(const PropertyContext& context) {
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Type rho = *rc::gen::elementOf(gen::type_pool());
  const Context gamma = {{"y", rho}, {"x", sigma}};
  return tx_typing_of({{"y", rho}}, {"x", sigma, *gen::term(gamma, tau, 2)}, context);
}

// ---- SEM-8: adequacy at ground type [OURS] ----
TrialResult adequacy_of(const Term& m, const PropertyContext& context) {
  return guarded([&] {
    const V v =
        denote_closed(m, context); // first: a point outside a domain is a discard, not a verdict
    const Run run = normalise(m, *semantics_for(context).rules, run_options(context));
    if (!is_numeric_value(run.result))
      return on(TrialResult::fail("normal form is not a numeral: " + print(run.result)), m);
    const std::vector<double> operational = numeric_reals(run.result);
    if (model::has_perturbations(v))
      return on(TrialResult::fail("tag leakage: " + model::to_string(v)), m);
    const std::vector<double> meaning = model::flatten_primal(v);
    if (!finite(meaning) || !finite(operational))
      return on(TrialResult::discard(props::discards::overflow), m);
    for (std::size_t i = 0; i < meaning.size(); ++i) {
      TrialResult r =
          props::compare_reals(meaning[i], "model", operational[i], "normal form",
                               CheckKind::exact_value, context.tolerance(CheckKind::exact_value));
      if (r.kind != TrialResult::Kind::pass) return on(r, m);
    }
    return on(TrialResult::pass(), m);
  });
}
TrialResult adequacy(const PropertyContext& context) {
  return adequacy_of(closed_input(context, gen::ground_pool()), context);
}

// ---- SEM-6: soundness of every step, Thm 5.6 (L339-346), by probing ----
TrialResult step_soundness_of(const Term& m, std::uint64_t seed, const PropertyContext& context) {
  return guarded([&] {
    const Rules& rules = *semantics_for(context).rules;
    Term current = m;
    // A step leaves most of the term's nodes as they were: their closed ground values are kept.
    const auto ground_values = std::make_shared<GroundValues>();
    V before = denote_closed(current, context, ground_values);
    for (int n = 0; n < 200; ++n) {
      auto s = step(current, rules);
      if (!s) return on(TrialResult::pass(), m);
      const V after = denote_closed(s->result, context, ground_values);
      TrialResult r = compare_values(before, "before " + s->rule, after, "after " + s->rule, m.type,
                                     seed, context);
      if (r.kind == TrialResult::Kind::fail) {
        r.trace = {s->rule + ": " + print(current) + "  ->  " + print(s->result)};
        return on(r, m);
      }
      if (r.kind == TrialResult::Kind::discard) return on(r, m);
      current = s->result;
      before = after;
    }
    return on(TrialResult::pass(), m);
  });
}
TrialResult step_soundness(const PropertyContext& context) {
  const Term m = closed_input(context, gen::type_pool());
  return step_soundness_of(m, probe_seed(), context);
}

// ---- SEM-9: strategy agreement [CONJECTURE L32, L350-352] ----
TrialResult strategy_agreement_of(const Term& m, const PropertyContext& context) {
  return guarded([&] {
    const Rules& rules = *semantics_for(context).rules;
    const Term big = normalise(m, rules, run_options(context)).result;
    const Term small = reduce_small_step(m, rules, run_options(context)).result;
    if (canonical_key(big) == canonical_key(small)) return on(TrialResult::pass(), m);
    TrialResult r = TrialResult::fail("innermost big-step and small-step normal forms differ");
    r.expected = reports::ComputedValue{"big-step", print(big)};
    r.actual = reports::ComputedValue{"small-step", print(small)};
    return on(r, m);
  });
}
TrialResult strategy_agreement(const PropertyContext& context) {
  return strategy_agreement_of(closed_input(context, gen::type_pool()), context);
}

// ---- SEM-9's other strategies: leftmost-outermost, and a redex drawn anywhere at each step
// [CONJECTURE L32, L350-352] ----
// The normal form of m by contracting, at each step, the redex `choose(count)` picks among the
// `count` redexes of the term (pre-order, strategy.hpp), with the rule and the choice of each step
// in `trace`; nullopt (and the reason) when a cap stopped it. A redex outside the innermost
// position can make T_x's output explode (spec pitfall 7): the steps, the work and the term's size
// as a tree are capped, and a run over a cap is a discard (`fuel`, `blow-up`), never a pass.
struct ChosenRun {
  std::optional<Term> normal;
  std::string stopped;
  std::vector<std::string> trace;
};
template <class Choose> ChosenRun reduce_choosing(Term current, const Rules& rules, Choose choose) {
  constexpr long max_steps = 500;
  WorkBudget work(max_steps, RunOptions{}.work_per_step);
  ChosenRun run;
  for (long n = 0;; ++n) {
    const std::size_t redexes = redex_count(current, rules);
    if (redexes == 0) break;
    if (n == max_steps) return {std::nullopt, "fuel", std::move(run.trace)};
    const std::size_t which = choose(redexes);
    auto s = step_at(current, rules, which, &work);
    if (!s) throw std::logic_error("perturbative: a counted redex is not there to step");
    run.trace.push_back(s->rule + " at redex " + std::to_string(which) + " of " +
                        std::to_string(redexes));
    current = std::move(s->result);
    if (tree_size(current, tx_size_cap + 1) > tx_size_cap)
      return {std::nullopt, "blow-up", std::move(run.trace)};
  }
  run.normal = std::move(current);
  return run;
}

// Leftmost-outermost (always the first redex, restricted by the caps to small runs) and a random
// redex at each step, drawn by RapidCheck so that a counterexample shrinks to fewer and earlier
// choices, each against the innermost normal form.
// `choose(n)` picks the random strategy's redex among n (drawn by RapidCheck in a trial, from the
// fixed seed for an enumerated term).
TrialResult other_strategies_agreement_of(const Term& m,
                                          const std::function<std::size_t(std::size_t)>& choose,
                                          const PropertyContext& context) {
  return guarded([&] {
    const Rules& rules = *semantics_for(context).rules;
    const Term big = normalise(m, rules, run_options(context)).result;
    const auto differs = [&](const ChosenRun& run, const char* strategy) {
      TrialResult r = TrialResult::fail(std::string("the innermost normal form and the ") +
                                        strategy + " normal form differ");
      r.expected = reports::ComputedValue{"innermost big-step", print(big)};
      r.actual = reports::ComputedValue{strategy, print(*run.normal)};
      r.trace = run.trace;
      return r;
    };
    const ChosenRun outermost = reduce_choosing(m, rules, [](std::size_t) { return 0; });
    if (!outermost.normal) return on(TrialResult::discard(outermost.stopped), m);
    if (canonical_key(*outermost.normal) != canonical_key(big))
      return on(differs(outermost, "leftmost-outermost"), m);
    const ChosenRun random = reduce_choosing(m, rules, choose);
    if (!random.normal) return on(TrialResult::discard(random.stopped), m);
    if (canonical_key(*random.normal) != canonical_key(big))
      return on(differs(random, "random-redex"), m);
    return on(TrialResult::pass(), m);
  });
}
TrialResult other_strategies_agreement(const PropertyContext& context) {
  return other_strategies_agreement_of(
      closed_input(context, gen::type_pool()),
      [](std::size_t n) { return adsem::gen::uniform_below(n); }, context);
}

// ---- SEM-5: Lemma 5.5 (L316-338): ⟦T_x M⟧(γ, x ↦ (x′, x0)) = 𝒯(λv.⟦M⟧(γ, x ↦ v))(x′, x0) ----
// Γ, x:σ ⊢ M : τ, Γ the other variables (the random terms' y : ρ; none in an enumerated one),
// whose values, then x0 and x′, are drawn from `seed` in this order.
TrialResult lemma_5_5_of(const Context& others, const Opened& in, std::uint64_t seed,
                         const PropertyContext& context) {
  const Term& m = in.m;
  const Type& sigma = in.sigma;
  return guarded([&] {
    const Term t = tx(context, in.x, sigma, m);
    if (tree_size(t, tx_size_cap + 1) > tx_size_cap) return on(TrialResult::discard("blow-up"), m);
    std::mt19937_64 rng(seed);
    Env<double> env = nullptr;
    for (const auto& [name, type] : others)
      env = extend<double>(env, name, model::random_value(model_type(type), rng));
    const V x0 = model::random_value(model_type(sigma), rng);
    const V dx = model::random_value(model_type(sigma), rng);
    const DenoteContext dc = denote_context(context);
    const V lhs = denote<double>(t, extend<double>(env, in.x, V::pair(dx, x0)), dc);
    const V f = V::function([&m, env, dc, x = in.x](const V& v) {
      return denote<double>(m, extend<double>(env, x, v), dc);
    });
    const V rhs = model::pushforward(f, dx, x0, dc.diff);
    return on(compare_values(rhs, "model 𝒯(λx.⟦M⟧)", lhs, "⟦T_x M⟧", t.type, seed, context), m);
  });
}
TrialResult lemma_5_5(const PropertyContext& context) {
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Type rho = *rc::gen::elementOf(gen::type_pool());
  const Context gamma = {{"y", rho}, {"x", sigma}};
  const Term m = *gen::term(gamma, tau, 2);
  return lemma_5_5_of({{"y", rho}}, {"x", sigma, m}, probe_seed(), context);
}

// SYN-7's terms: M : τ with x : σ free whose T_x M stays under the blow-up cap. T_x copies the
// operands of an application three times (the ◇ of Fig. 4, L211-218; spec §9.6), so about half
// of the depth-3 terms exceed the cap and could not be judged: such a draw is drawn once more
// (the types stay) before the trial's blow-up discard. One more draw, not more: the terms whose
// T_x grows fastest hold T and nested T, and further draws would all but leave them out.
constexpr int judgeable_draws = 2;
// A drawn M, and T_x M when the draw was judged on it (the engine that built it holds the
// clauses' firings): the trial uses that T_x instead of building it again.
struct Judged {
  Term m;
  std::optional<Term> tx;
  std::optional<Engine> engine;
};
Judged tx_judgeable_term(const Context& gamma, const std::string& x, const Type& sigma,
                         const Type& tau, const Rules& book) {
  Judged out{*gen::term(gamma, tau, 3), std::nullopt, std::nullopt};
  const auto judgeable = [&] {
    try {
      out.engine.emplace(book);
      out.tx = transform(*out.engine, x, sigma, out.m);
      if (tree_size(*out.tx, tx_size_cap + 1) <= tx_size_cap) return true;
    } catch (const AdsemError&) {
      out.tx.reset();
      return true; // the trial reports the error
    }
    out.tx.reset();
    return false;
  };
  for (int draw = 1; draw < judgeable_draws && !judgeable(); ++draw) {
    out.m = *gen::term(gamma, tau, 3);
    out.engine.reset();
  }
  return out;
}

// ---- SYN-7: NF(π2(T_x M)) ≡ NF(M[π2 x / x]) [DERIVED] ----
// x:σ ⊢ M : τ, with T_x M when the draw built it (judged.tx), else built here.
TrialResult primal_is_substitution_of(const Judged& judged, const std::string& x, const Type& sigma,
                                      const PropertyContext& context) {
  const Term& m = judged.m;
  return guarded([&] {
    const Rules& rules = *semantics_for(context).rules;
    const Type tsigma = tangent_type(sigma);
    if (judged.tx)
      if (RuleCounter* counter = context.rule_counter.get()) judged.engine->add_firings(*counter);
    const Term t = judged.tx ? *judged.tx : tx(context, x, sigma, m);
    if (!judged.tx && tree_size(t, tx_size_cap + 1) > tx_size_cap)
      return on(TrialResult::discard("blow-up"), m);
    const Term lhs = normalise(proj(2, t), rules, run_options(context)).result;
    const Term rhs =
        normalise(substitute(m, x, proj(2, var(x, tsigma))), rules, run_options(context)).result;
    if (canonical_key(lhs) == canonical_key(rhs)) return on(TrialResult::pass(), m);
    TrialResult r = TrialResult::fail("the primal part of T_x M is not M[π2 x/x]");
    r.expected = reports::ComputedValue{"NF(M[pi2 x/x])", print(rhs)};
    r.actual = reports::ComputedValue{"NF(pi2 (T_x M))", print(lhs)};
    return on(r, m);
  });
}
TrialResult primal_is_substitution(const PropertyContext& context) {
  const Type sigma = *rc::gen::elementOf(gen::type_pool());
  const Type tau = *rc::gen::elementOf(gen::type_pool());
  const Context gamma = {{"x", sigma}};
  return primal_is_substitution_of(
      tx_judgeable_term(gamma, "x", sigma, tau, *semantics_for(context).rules), "x", sigma,
      context);
}

// ---- AD-8: D(f, a) by the calculus against central differences of the model ----
TrialResult ad_vs_finite_differences_of(const Term& f, double a, const PropertyContext& context) {
  return guarded([&] {
    // The model first: a point outside a primitive's domain is a discard, not a verdict.
    const DenoteContext dc = denote_context(context);
    const V fv = denote<double>(f, nullptr, dc);
    const auto at = [&fv](double x) { return fv(V(x)).real().primal(); };
    const model::FdDerivativeEstimate estimate = model::fd_derivative_estimate(at, a);
    const double fd = estimate.derivative;
    const double exact = model::derivative(fv, V(a), dc.diff).real().primal();
    const Semantics& semantics = semantics_for(context);
    const Rules& rules = *semantics.rules;
    const Term derivative = semantics.derivative(f, numeral(1.0), numeral(a),
                                                 context.rule_counter.get()); // D(f, 1, a)
    const Term nf = normalise(derivative, rules, run_options(context)).result;
    if (!is_numeric_value(nf))
      return on(TrialResult::fail("D(f, a) did not normalise to a numeral: " + print(nf)), f);
    const double ad = numeric_reals(nf).front();
    if (!std::isfinite(fd) || !std::isfinite(exact) || !std::isfinite(ad))
      return on(TrialResult::discard(props::discards::overflow), f);
    // The stencil is unreliable near a singularity: the model's exact derivative and the
    // finite differences must agree before the FD oracle is trusted.
    if (!within_tolerance(exact, fd, context.tolerance(CheckKind::finite_difference)))
      return on(TrialResult::discard("fd-unreliable"), f);
    return on(props::compare_with_estimate(fd, estimate.error, "finite differences", ad,
                                           "D(f, a) by T",
                                           context.tolerance(CheckKind::finite_difference)),
              f);
  });
}
TrialResult ad_vs_finite_differences(const PropertyContext& context) {
  const Term f = function_input(context, real_type());
  const double a = adsem::gen::uniform_in(-250, 251) / 100.0;
  return ad_vs_finite_differences_of(f, a, context);
}

// ---- AD-7: the perturbation-confusion suite of spec §8 (E3, M6, M7, M8, M9, M15) ----
struct Example {
  const char* id;
  const char* source;
  double expected;
};
const std::vector<Example>& confusion_suite() {
  static const std::vector<Example> suite = {
      {"E3", "pi1 (T (\\x:R. x * pi1 (T (\\y:R. x) (1, 2))) (1, 1))", 0.0},
      {"M6", "pi1 (T (\\x:R. x * pi1 (T (\\y:R. x + y) (1, 1))) (1, 1))", 1.0},
      {"M7", "pi1 (T (\\x:R. x * pi1 (T (\\y:R. x * y) (1, 2))) (1, 1))", 2.0},
      {"M8", "pi1 (T (\\x:R. pi1 (T exp (1, x))) (1, 1))", 2.718281828459045},
      {"M9", "let D = \\f:R->R. \\a:R. pi1 (T f (1, a)) in D (D (\\x:R. x*x*x)) 2", 12.0},
      {"M15",
       "let s = \\u:R. \\f:R->R. \\x:R. f (x + u) in let g = pi1 (T s (1, 0)) in "
       "g (g exp) 1",
       2.718281828459045},
  };
  return suite;
}

TrialResult perturbation_confusion(const PropertyContext& context) {
  const Example example = *rc::gen::elementOf(confusion_suite());
  const Term m = parse_closed(example.source);
  return guarded([&] {
    const Term nf = normalise(m, *semantics_for(context).rules, run_options(context)).result;
    if (!is_numeric_value(nf))
      return on(TrialResult::fail(std::string(example.id) + ": normal form " + print(nf)), m);
    TrialResult r = props::compare_reals(
        example.expected, std::string(example.id) + " (spec §8)", numeric_reals(nf).front(),
        "normal form", CheckKind::exact_value, context.tolerance(CheckKind::exact_value));
    if (r.kind != TrialResult::Kind::pass) return on(r, m);
    const double meaning = denote_closed(m, context).real().primal();
    return on(props::compare_reals(example.expected, std::string(example.id) + " (spec §8)",
                                   meaning, "model", CheckKind::exact_value,
                                   context.tolerance(CheckKind::exact_value)),
              m);
  });
}

} // namespace

std::vector<PropertyDef> properties() {
  std::vector<PropertyDef> all = {
      def("round-trip", "round-trip", "printing a generated term re-parses to the same term",
          "spec §2.7 [OURS]", round_trip),
      def("subject-reduction", "subject-reduction",
          "every small step (β, ×1, ×2, T, δ, δT, ν) preserves the type",
          "seed 004, Lemma 4.1(d), L275; spec SYN-4", subject_reduction),
      def("tx-typing", "typing", "Γ; x:σ ⊢ M : τ implies Γ; x:Tσ ⊢ T_x M : Tτ",
          "seed 004, Lemma 4.1(b), L273; spec SYN-2", tx_typing),
      def("adequacy", "adequacy",
          "a closed ground term normalises to numerals equal to its denotation, with no tag "
          "leakage",
          "spec SEM-8 [OURS]; seed 004 §5 L281-293", adequacy),
      def("step-soundness", "soundness",
          "each small step preserves the denotation (probing at function types)",
          "seed 004, Thm 5.6, L339-346; spec SEM-6", step_soundness),
      def("strategy-agreement", "confluence",
          "innermost big-step and leftmost-innermost small-step normal forms agree modulo α, AC, "
          "ν",
          "seed 004 L32, L350-352 (conjecture); spec SEM-9", strategy_agreement),
      def("other-strategies-agreement", "confluence",
          "the leftmost-outermost normal form, and that of a redex drawn at random (anywhere, "
          "under λ too) at each step, are the innermost one modulo α, AC, ν",
          "seed 004 L32, L350-352 (conjecture); spec SEM-9 (its other two strategies)",
          other_strategies_agreement),
      def("lemma-5-5", "ad-correctness",
          "⟦T_x M⟧(γ, x ↦ (x′, x0)) = 𝒯(λv.⟦M⟧(γ, x ↦ v))(x′, x0) by probing",
          "seed 004, Lemma 5.5, L316-338; spec SEM-5 / §5.4", lemma_5_5),
      def("primal-is-substitution", "typing", "NF(π2(T_x M)) ≡ NF(M[π2 x/x]) modulo α, AC and ν",
          "spec SYN-7 [DERIVED]; Fig. 4 L211-218", primal_is_substitution),
      def("ad-vs-finite-differences", "ad-correctness",
          "D(f, a) = π1(T f (1, a)) by reduction agrees with central differences of ⟦f⟧",
          "spec AD-8; seed 004 L42-46", ad_vs_finite_differences),
      def("perturbation-confusion", "golden",
          "E3, M6, M7, M8, M9, M15 give the spec §8 values through NF and ⟦·⟧",
          "seed 004 L48-55; spec AD-7, §8", perturbation_confusion),
  };
  for (auto part : {functor_properties(), lemma_properties(), model_properties()})
    for (PropertyDef& p : part)
      all.push_back(std::move(p));
  // bounded-exhaustive checks of one enumerated input (enumeration.hpp): a closed term, or a
  // closed function λy1:R. M opened for the T_x properties; the drawn seeds and point fixed
  const std::vector<std::pair<std::string, EnumeratedCheck>> checks = {
      {"round-trip",
       of_closed_term([](const Term& m, const PropertyContext&) { return round_trip_of(m); })},
      {"subject-reduction", of_closed_term(subject_reduction_of)},
      {"adequacy", of_closed_term(adequacy_of)},
      {"step-soundness", of_closed_term([](const Term& m, const PropertyContext& c) {
         return step_soundness_of(m, enumeration_probe_seed, c);
       })},
      {"strategy-agreement", of_closed_term(strategy_agreement_of)},
      {"other-strategies-agreement", of_closed_term([](const Term& m, const PropertyContext& c) {
         std::mt19937_64 rng(enumeration_probe_seed);
         return other_strategies_agreement_of(
             m, [&rng](std::size_t n) { return static_cast<std::size_t>(rng() % n); }, c);
       })},
      {"tx-typing", of_opened_function([](const Opened& in, const PropertyContext& c) {
         return tx_typing_of({}, in, c);
       })},
      {"lemma-5-5", of_opened_function([](const Opened& in, const PropertyContext& c) {
         return lemma_5_5_of({}, in, enumeration_probe_seed, c);
       })},
      {"primal-is-substitution", of_opened_function([](const Opened& in, const PropertyContext& c) {
         return primal_is_substitution_of({in.m, std::nullopt, std::nullopt}, in.x, in.sigma, c);
       })},
      {"ad-vs-finite-differences",
       of_opened_function([](const Opened& in, const PropertyContext& c) {
         return ad_vs_finite_differences_of(lam(in.x, in.sigma, in.m), enumeration_point, c);
       })},
  };
  for (PropertyDef& p : all)
    for (const auto& [name, check] : checks)
      if (p.name == std::string(calculus) + "/" + name) p.check_input = check;
  return all;
}

} // namespace adsem::perturbative
