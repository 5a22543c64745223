// Properties of spec §6 for seed 002 (Brunel–Mazza–Pagani). Each body draws a well-typed term
// (generators/linear_negation), runs this calculus's rules (the rule table of the active mutant)
// and compares with the numeric model (semantics/linear_negation/denotation.hpp), which never
// calls D or the reducer.
#include "properties/linear_negation/properties.hpp"

#include <any>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "generators/linear_negation/terms.hpp"
#include "properties/core/discards.hpp"
#include "properties/core/fd_compare.hpp"
#include "properties/core/sum_compare.hpp"
#include "properties/linear_negation/enumeration.hpp"
#include "properties/linear_negation/mutants.hpp"
#include "properties/linear_negation/rule_adapter.hpp"
#include "properties/linear_negation/user_rules.hpp"
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/interval_model.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/core/work_budget.hpp"
#include "semantics/linear_negation/denotation.hpp"
#include "semantics/linear_negation/equivalence.hpp"
#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

using props::PropertyContext;
using props::PropertyDef;
using props::TrialResult;
using V = model::Value<double>;
using D = model::Dual<double>;

constexpr const char* calc = "linear-negation";

// uniform in [lo, hi) at every size: *resize(100, inRange(lo, hi)), its generator made once
int choose(int lo, int hi) {
  return adsem::gen::uniform_in(lo, hi);
}

TrialResult guarded(const std::function<TrialResult()>& body, bool fuel_is_failure = false) {
  try {
    return body();
  } catch (const model::Undefined&) {
    return TrialResult::discard("undefined-point");
  } catch (const model::Undecided& e) {
    return TrialResult::discard(e.reason());
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) {
      // the work cap (copies of rule (9)) says nothing about normalisation
      if (fuel_is_failure && !WorkBudget::ran_over(e.diagnostic()))
        return TrialResult::fail("no normal form within the fuel (Prop. 6)");
      return TrialResult::discard("fuel");
    }
    if (e.diagnostic().kind == ErrorKind::domain) return TrialResult::discard("undefined-point");
    throw;
  }
}

TrialResult& on(TrialResult& r, const Term& t, const Type& type) {
  const bool shown = r.shows_input(); // statistics read only the size and the tags
  return r.on(shown ? print(t) : "", shown && type ? print_type(type) : "",
              static_cast<int>(size_of(t)), gen::tags_of(t));
}
TrialResult on(TrialResult&& r, const Term& t, const Type& type) {
  return on(r, t, type);
}
bool is_pass(const TrialResult& r) {
  return r.kind == TrialResult::Kind::pass;
}
bool finite(const std::vector<double>& xs) {
  return std::all_of(xs.begin(), xs.end(), [](double x) { return std::isfinite(x); });
}

RunOptions run_options(const PropertyContext& c, Strategy s = Strategy::bp,
                       std::uint64_t seed = 0) {
  RunOptions o;
  o.fuel = c.option_int("fuel", 200'000);
  o.strategy = s;
  o.seed = seed;
  o.book = book_for(c.mutant, c.user_rules.get());
  o.counter = c.rule_counter.get();
  return o;
}

// D_d under the active mutant's book; its clauses count towards rule coverage.
TransformOptions transform_options(const PropertyContext& c, int d = 1) {
  TransformOptions o;
  o.d = d;
  o.book = book_for(c.mutant, c.user_rules.get());
  o.counter = c.rule_counter.get();
  return o;
}

// The source body as a model function of its inputs, on any scalar (never D or reduction).
template <class C> model::VectorFunction<model::Dual<C>> model_function(const gen::Source& s) {
  return [s](std::span<const model::Dual<C>> x) {
    Env<C> env;
    for (std::size_t i = 0; i < x.size(); ++i)
      env = bind<C>(env, s.inputs[i], model::Value<C>(x[i]));
    return std::vector<model::Dual<C>>{denote<C>(s.body, env).real()};
  };
}

// Interval certification of the point (design.md "Partial domains"): the box around r lies in
// every primitive's domain; otherwise the trial is a counted discard.
std::optional<model::Certificate> certify(const gen::Source& s) {
  const auto f = model_function<model::Interval>(s);
  const model::Certificate c =
      model::certify(s.point, [&](const model::Box& box) { (void)model::enclose(f, box); });
  if (c.status != model::CertificateStatus::certified) return std::nullopt;
  return c;
}

TrialResult compare_vectors(const std::vector<double>& expected, const std::string& el,
                            const std::vector<double>& actual, const std::string& al,
                            CheckKind kind, const PropertyContext& c) {
  if (expected.size() != actual.size())
    return TrialResult::fail(
        fmt::format("{} has {} components, {} has {}", el, expected.size(), al, actual.size()));
  // overflow in the oracle (e.g. exp of a large square) is no verdict: a counted discard
  if (!finite(expected)) return TrialResult::discard(props::discards::overflow);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    TrialResult r = props::compare_reals(expected[i], fmt::format("{}[{}]", el, i), actual[i],
                                         fmt::format("{}[{}]", al, i), kind, c.tolerance(kind));
    if (!is_pass(r)) return r;
  }
  return TrialResult::pass();
}

// Two evaluations of one closed term t, at exact-value. The paper's rules perform one arithmetic
// whatever the strategy (each primitive on the same numerals), so without user rules they agree
// bit for bit; a sound rule of a rule file may reorder it (M * (N + P) --> M * N + M * P), and on
// an ill-conditioned term (cos of f(f(f(1))) ≈ cos(-1.1e7)) the rounding it moves grows past
// exact-value. With user rules a failing component is weighed again relative to the rounding
// magnitude of ⟦t⟧, its interval enclosure's width over epsilon (model::rounding_magnitude,
// docs/model.md "Sums"): a difference of rounding passes, an unsound rule's does not.
TrialResult same_numbers(const std::vector<double>& expected, const std::string& el,
                         const std::vector<double>& actual, const std::string& al, const Term& t,
                         const PropertyContext& c) {
  TrialResult plain = compare_vectors(expected, el, actual, al, CheckKind::exact_value, c);
  if (!c.user_rules) return plain;
  return props::unless_rounding_of_sums(
      std::move(plain), expected, el, actual, al,
      [&] {
        std::vector<double> out;
        for (const model::Interval& v :
             model::flatten_primal(denote<model::Interval>(t, Env<model::Interval>{})))
          out.push_back(model::rounding_magnitude(v));
        return out;
      },
      CheckKind::exact_value, c.tolerance(CheckKind::exact_value));
}

// Per input, the magnitude of the chain rule's terms of ∂⟦t⟧/∂x_i at the point
// (model::jvp_magnitude). A component that cancels (∂(x/x)/∂x) is exactly 0 in the model's duals,
// while the calculus sums 1/x and −x/x² and errs relative to these terms, not to 0
// (semantics/core/tolerance.hpp, SumWithMagnitude; docs/model.md "Sums").
std::vector<double> gradient_magnitudes(const gen::Source& s) {
  const auto f = model_function<model::Interval>(s);
  std::vector<double> out;
  for (std::size_t i = 0; i < s.inputs.size(); ++i) {
    std::vector<double> unit(s.inputs.size(), 0.0);
    unit[i] = 1.0;
    out.push_back(model::jvp_magnitude(f, s.point, unit).at(0));
  }
  return out;
}

// The model's gradient against a computed one, component by component, each a sum whose terms
// have the given magnitudes; they are computed only for a comparison that fails without them
// (props::unless_rounding_of_sums).
TrialResult compare_gradients(const std::vector<double>& exact, const std::string& el,
                              const std::vector<double>& actual, const std::string& al,
                              const std::function<std::vector<double>()>& magnitudes,
                              const PropertyContext& c) {
  return props::unless_rounding_of_sums(
      compare_vectors(exact, el, actual, al, CheckKind::derivative, c), exact, el, actual, al,
      magnitudes, CheckKind::derivative, c.tolerance(CheckKind::derivative));
}

// probe_seed: the probes' seed, drawn here when not given (an enumerated input gives one).
TrialResult probe_equal(const V& a, const std::string& al, const V& b, const std::string& bl,
                        const Type& type, const PropertyContext& c,
                        std::optional<std::uint32_t> probe_seed = std::nullopt) {
  const std::uint32_t seed = probe_seed ? *probe_seed : *rc::gen::arbitrary<std::uint32_t>();
  const auto report =
      model::compare_by_probing(a, b, model_type(type), seed, 3, c.tolerance(CheckKind::probe));
  if (report.equal) return TrialResult::pass();
  if (!std::isfinite(report.worst_difference))
    return TrialResult::discard(props::discards::overflow);
  TrialResult r = TrialResult::fail(
      fmt::format("{} and {} differ by {} at {} ({} probes)", al, bl, report.worst_difference,
                  report.worst_place.empty() ? "the value" : report.worst_place, report.probes));
  r.discrepancy = report.worst_difference;
  r.tolerance = c.tolerance(CheckKind::probe);
  r.tolerance_kind = "probe";
  return r;
}

V denote_closed(const Term& t, std::shared_ptr<DenoteBudget> budget = nullptr) {
  return denote<double>(t, nullptr, std::move(budget));
}

// ⟦t⟧ of a closed term, or the discard `guarded` makes of its ⊥, without throwing it.
std::variant<V, TrialResult> denote_or_discard(const Term& t) {
  std::unique_ptr<const model::DomainFailure> failure;
  V v = denote<double>(t, nullptr, failure);
  if (!failure) return v;
  if (const auto* undecided = std::get_if<model::Undecided>(failure.get()))
    return TrialResult::discard(undecided->reason());
  return TrialResult::discard("undefined-point");
}

// A closed term of the linear calculus: gen_lin or a "realistic" instance (the closed gradient
// wrapper of a generated source term, spec §10.2), elaborated. With user rules (`--rules`), the
// targeted share of the trials draws an instance C[σ(LHS)] of one of the file's rules of Table 2
// instead, closed at its point (a program of type R, so every caller can take it).
Typed draw_closed(const PropertyContext& c, bool euclidean_only) {
  if (props::draw_targeted(c)) {
    const auto& added = c.user_rules->compiled_as<CompiledRules>().reductions();
    if (!added.empty())
      return draw_closed_instance(
          *added[static_cast<std::size_t>(choose(0, static_cast<int>(added.size())))]);
  }
  if (choose(0, 3) == 0) {
    const gen::Source s = *gen::source(2);
    const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point, {}, true);
    Term t = w.term; // close the xj' with linear maps \a. c·a
    static const rc::Gen<double> slopes = rc::gen::element(1.0, -0.5, 2.0); // made once
    const std::vector<std::string> as = fresh_names(t, "a", w.backprop.size());
    for (std::size_t i = 0; i < as.size(); ++i)
      t = let(exp_binder(w.backprop[i], neg_type(1)), t,
              lam(lin_binder(as[i]), mul(num(*slopes), var(as[i]))));
    // elaborated already: D of an elaborated term types every binder it makes (Table 3b), and
    // the wrapper names them fresh, so elaborate would give t back; its type is the pair (k, k' 1)
    // of spec §4.9 (tests/linear_negation check both)
    return {t, product_type(real_type(), euclidean(1))};
  }
  return *(euclidean_only ? gen::closed_euclidean() : gen::closed_linear());
}

// A source program x1..xn : R ⊢ t : R at a point (gen_src). With user rules, the targeted share of
// the trials draws an instance C[σ(LHS)] of one of the file's source rules of Table 2 instead
// (its context is a gen_src program, so D applies to it).
gen::Source draw_source(const PropertyContext& c, int max_inputs) {
  if (props::draw_targeted(c)) {
    std::vector<const Pattern*> source_rules;
    for (const auto& p : c.user_rules->compiled_as<CompiledRules>().reductions())
      if (p->source) source_rules.push_back(p.get());
    if (!source_rules.empty()) {
      const RuleInstance in = draw_rule_instance(*source_rules[static_cast<std::size_t>(
          choose(0, static_cast<int>(source_rules.size())))]);
      gen::Source s;
      s.inputs = in.inputs;
      s.point = in.point;
      s.body = elaborate(in.program, s.context(), true).term;
      return s;
    }
  }
  return *gen::source(max_inputs);
}

// ---- parse/print round trip (spec §2.7) ----
TrialResult round_trip_of(const Typed& t) {
  const std::string text = print(t.term);
  const Term back = parse_term(text, signature(), Mode::target);
  TrialResult r = TrialResult::pass();
  if (alpha_key(back) != alpha_key(t.term)) r = TrialResult::fail("re-parsed as " + print(back));
  return on(r, t.term, t.type);
}
TrialResult round_trip(const PropertyContext& c) {
  return round_trip_of(draw_closed(c, false));
}

// The S_rand seed of a check of one closed term: drawn where the random body draws it (after
// what the check does before, so a trial's draws stay the same, in the same order), or one of an
// enumerated input's fixed seeds (enumeration.hpp).
using SeedSource = std::function<std::uint64_t()>;
std::uint64_t drawn_seed() {
  return *rc::gen::arbitrary<std::uint64_t>();
}

// ---- P1 subject reduction (Prop. 2, L407; proof L712-719), every step of S_rand ----
TrialResult subject_reduction_of(const Typed& t, const SeedSource& seed, const PropertyContext& c) {
  return guarded([&] {
    Reducer r(t.term, run_options(c, Strategy::random, seed()));
    for (int n = 0; n < 3000; ++n) {
      const auto s = r.step();
      if (!s) break;
      if (const auto e = type_error(s->result, {}, t.type, signature())) {
        TrialResult f =
            TrialResult::fail(fmt::format("after step {} ({}): {}", n + 1, s->rule, *e));
        f.trace = {s->rule + ": " + print(s->result)};
        return on(f, t.term, t.type);
      }
    }
    return on(TrialResult::pass(), t.term, t.type);
  });
}
TrialResult subject_reduction(const PropertyContext& c) {
  return subject_reduction_of(draw_closed(c, false), drawn_seed, c);
}

// ---- P4 closed β-normal forms are values (Prop. 5, L413; proof L744-748) ----
TrialResult normal_forms_are_values_of(const Typed& t, const PropertyContext& c) {
  return guarded([&] {
    // outside a domain (23) is stuck: discard (spec §9 P14)
    if (auto d = denote_or_discard(t.term); std::holds_alternative<TrialResult>(d))
      return std::get<TrialResult>(std::move(d));
    const Run run = normalise(t.term, run_options(c));
    TrialResult r = TrialResult::pass();
    if (!is_value(run.result))
      r = TrialResult::fail("closed normal form is not a value: " + print(run.result));
    else if (is_first_order(t.type) && !is_numeral_tuple(run.result))
      r = TrialResult::fail("closed Euclidean normal form is not a numeral tuple: " +
                            print(run.result));
    return on(r, t.term, t.type);
  });
}
TrialResult normal_forms_are_values(const PropertyContext& c) {
  return normal_forms_are_values_of(draw_closed(c, false), c);
}

// ---- P5 normalisation (Prop. 6, L415; proof L750-752): S_bp and S_rand reach a normal form ----
TrialResult normalisation_of(const Typed& t, const SeedSource& seed, const PropertyContext& c) {
  return guarded(
      [&] {
        if (auto d = denote_or_discard(t.term); std::holds_alternative<TrialResult>(d))
          return std::get<TrialResult>(std::move(d));
        (void)normalise(t.term, run_options(c));
        (void)normalise(t.term, run_options(c, Strategy::random, seed()));
        return on(TrialResult::pass(), t.term, t.type);
      },
      true);
}
TrialResult normalisation(const PropertyContext& c) {
  return normalisation_of(draw_closed(c, false), drawn_seed, c);
}

// ---- P7 semantic soundness of every step (Prop. 8, L428), by probing ----
TrialResult step_soundness(const PropertyContext& c) {
  const Typed t = draw_closed(c, false);
  return step_soundness_at(t, *rc::gen::arbitrary<std::uint64_t>(), c);
}

// One ≡ step from t by the active book's rules of Table 2d, drawn among all of them (none: t has
// none); the rule taken counts towards rule coverage.
std::optional<EquivStep> equivalence_step(const Term& t, Names& names, const PropertyContext& c) {
  auto steps = equivalence_steps(t, names, *book_for(c.mutant, c.user_rules.get()));
  if (steps.empty()) return std::nullopt;
  EquivStep s =
      std::move(steps[static_cast<std::size_t>(choose(0, static_cast<int>(steps.size())))]);
  if (c.rule_counter) c.rule_counter->add(s.rule);
  return s;
}

// ---- Prop. 2 + Prop. 8 for ≡ (18)-(22) (Table 2d L369-383) ----
// One ≡ step t ≡ u keeps the type and the denotation ⟦t⟧ (`before`).
// probe_seed: the probes' seed, drawn when not given (an enumerated term gives one).
TrialResult equivalence_step_sound(const Typed& t, const V& before, const EquivStep& s,
                                   const PropertyContext& c,
                                   std::optional<std::uint32_t> probe_seed = std::nullopt) {
  if (const auto e = type_error(s.result, {}, t.type, signature()))
    return TrialResult::fail(s.rule + " broke typing: " + *e + " in " + print(s.result));
  return probe_equal(before, "before " + s.rule, denote_closed(s.result), "after " + s.rule, t.type,
                     c, probe_seed);
}

// A term with no ≡ step has nothing to check: a counted discard, not a pass.
TrialResult no_equivalence_step() {
  return TrialResult::discard("no-equivalence-step");
}

TrialResult equivalence_soundness(const PropertyContext& c) {
  const Typed t = draw_closed(c, false);
  return guarded([&] {
    Names names(t.term);
    const V before = denote_closed(t.term);
    const auto s = equivalence_step(t.term, names, c);
    if (!s) return on(no_equivalence_step(), t.term, t.type);
    return on(equivalence_step_sound(t, before, *s, c), t.term, t.type);
  });
}

// Every ≡ step of t (an enumerated term: each step one more input), the first that fails;
// `checker` is made once per term (what it reads of t before the steps) and checks one step.
using StepCheck = std::function<TrialResult(const EquivStep&)>;
TrialResult every_equivalence_step(const Typed& t, const PropertyContext& c,
                                   const std::function<StepCheck()>& checker) {
  return guarded([&] {
    Names names(t.term);
    const auto steps = equivalence_steps(t.term, names, *book_for(c.mutant, c.user_rules.get()));
    if (steps.empty()) return on(no_equivalence_step(), t.term, t.type);
    const StepCheck check = checker();
    for (const EquivStep& s : steps) {
      if (c.rule_counter) c.rule_counter->add(s.rule);
      TrialResult r = check(s);
      if (!is_pass(r)) return on(std::move(r), t.term, t.type);
    }
    return on(TrialResult::pass(), t.term, t.type);
  });
}

TrialResult equivalence_soundness_of_every_step(const Typed& t, const PropertyContext& c) {
  return every_equivalence_step(t, c, [&]() -> StepCheck {
    return [&t, &c, before = denote_closed(t.term)](const EquivStep& s) {
      return equivalence_step_sound(t, before, s, c,
                                    static_cast<std::uint32_t>(enumeration_seeds().front()));
    };
  });
}

// ---- P2 ≡ is a strong bisimulation, weak form (Lemma 3, L409; proof L721-738; spec §6 P2):
// after one ≡ step t ≡ t', every rule with a redex in t still has one in t'.
std::set<std::string> rules_with_a_redex(const Term& u, const PropertyContext& c) {
  std::set<std::string> out;
  for (const Step& s : Reducer(u, run_options(c)).all_steps())
    out.insert(s.rule);
  return out;
}

// The rules with a redex in t (`before`) all have one after the step.
TrialResult redexes_kept(const std::set<std::string>& before, const EquivStep& e,
                         const PropertyContext& c) {
  const auto after = rules_with_a_redex(e.result, c);
  const bool moved_across = e.rule == "equiv-21" || e.rule == "equiv-22";
  for (const std::string& r : before)
    // Known gap, found by this property: (20) renames one occurrence of x to a copy y, and
    // (17) needs the SAME head variable in both summands, so x t + x u ≡ y t + x u has no
    // (17) redex: Lemma 3 fails for ι = (17) under (20). Recorded in the docs, not a failure.
    // Our AC view of sums (spec §9 P3) does not look through an ES around a sub-sum, so after
    // (21)/(22) wraps a summand group in an ES the AC-only (12), (13), (17) instances may hide
    // (the paper's binary rules have no such instances): not checked there. Nor are (9), (10)
    // and (16) after (21)/(22), which move an ES between a pair's component and the pair (found
    // by enumeration at size 7): ⟨1, y⟩[y := 1] is a value under a substitution context, which
    // (9) and (10) ask of an ES's content, and ⟨1, y[y := 1]⟩ is no value (a finding on Lemma 3
    // itself, like the spec's (20)/(10) caveat); the book fires (16) only where a component is
    // no numeral or variable ([EXT], so that S_bp ends), which the move changes.
    if (!after.count(r) && !(e.rule == "equiv-20" && r == "factor-17") &&
        !(moved_across && (r == "sum-12" || r == "sum-pair-13" || r == "factor-17" ||
                           r == "subst-9" || r == "gc-10" || r == "eta-pair-16")))
      return TrialResult::fail(
          fmt::format("after {} the {} redex is gone: {}", e.rule, r, print(e.result)));
  return TrialResult::pass();
}

TrialResult equivalence_bisimulation(const PropertyContext& c) {
  const Typed t = draw_closed(c, false);
  return guarded([&] {
    Names names(t.term);
    const auto step = equivalence_step(t.term, names, c);
    if (!step) return on(no_equivalence_step(), t.term, t.type);
    return on(redexes_kept(rules_with_a_redex(t.term, c), *step, c), t.term, t.type);
  });
}

TrialResult equivalence_bisimulation_of_every_step(const Typed& t, const PropertyContext& c) {
  return every_equivalence_step(t, c, [&]() -> StepCheck {
    return [&c, before = rules_with_a_redex(t.term, c)](const EquivStep& s) {
      return redexes_kept(before, s, c);
    };
  });
}

// ---- P3 postponement of ≡ (Prop. 4, L411, proof L740; spec §6 P3), the spec's weak form ----
// t (→ ∪ ≡)* u by up to eight rounds, each a ≡ step (one round in two) and a step of S_rand;
// Prop. 4 puts u within ≡ of a pure reduct of t, so by Cor. 9 their normal forms are the same
// numeral tuple. (The spec leaves the bounded search for the pure sequence itself optional: both
// of its ends denote the same by Prop. 8, which step-soundness checks.) The rounds, the ≡ steps
// and S_rand's seeds come from one seed, so that an enumerated term has one verdict per seed.
TrialResult equivalence_postponement_of(const Typed& t, const SeedSource& seed,
                                        const PropertyContext& c) {
  return guarded([&] {
    if (auto d = denote_or_discard(t.term); std::holds_alternative<TrialResult>(d))
      return std::get<TrialResult>(std::move(d));
    std::mt19937_64 rng(seed());
    const auto below = [&rng](std::size_t n) {
      return static_cast<std::size_t>(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng));
    };
    const Rules& book = *book_for(c.mutant, c.user_rules.get());
    Term u = t.term;
    std::vector<std::string> taken; // the rules of the mixed sequence, for the report
    const auto report = [&](const std::string& what) {
      return on(TrialResult::fail(fmt::format("after {}: {}", fmt::join(taken, ", "), what)),
                t.term, t.type);
    };
    for (std::size_t round = 0, rounds = 1 + below(8); round < rounds; ++round) {
      if (below(2) == 0) {
        Names names(u);
        std::vector<EquivStep> steps = equivalence_steps(u, names, book);
        if (!steps.empty()) {
          EquivStep& s = steps[below(steps.size())];
          if (c.rule_counter) c.rule_counter->add(s.rule);
          taken.push_back(s.rule);
          if (const auto e = type_error(s.result, {}, t.type, signature()))
            return report(*e + " in " + print(s.result));
          u = std::move(s.result);
        }
      }
      const auto s = Reducer(u, run_options(c, Strategy::random, rng())).step();
      if (!s) break;
      taken.push_back(s->rule);
      // Prop. 4's sequences are of typed terms: a step that breaks the type is named as the
      // culprit here, not the ≡ step after it
      if (const auto e = type_error(s->result, {}, t.type, signature()))
        return report(*e + " in " + print(s->result));
      u = s->result;
    }
    const Run from_u = normalise(u, run_options(c));
    if (!is_numeral_tuple(from_u.result))
      return report("the normal form of u = " + print(u) +
                    " is not a numeral tuple: " + print(from_u.result));
    TrialResult r =
        same_numbers(ground_result(normalise(t.term, run_options(c))), "normal form of t",
                     ground_result(from_u), "normal form of u", t.term, c);
    if (!is_pass(r))
      r.reason += fmt::format(" (t → u by {}; u = {})", fmt::join(taken, ", "), print(u));
    return on(r, t.term, t.type);
  });
}
TrialResult equivalence_postponement(const PropertyContext& c) {
  return equivalence_postponement_of(draw_closed(c, true), drawn_seed, c);
}

// ---- P8 unique normal forms at Euclidean type (Cor. 9, L432-434) and P9 adequacy ----
TrialResult unique_normal_forms_of(const Typed& t, const SeedSource& seed,
                                   const PropertyContext& c) {
  return guarded([&] {
    auto d = denote_or_discard(t.term);
    if (std::holds_alternative<TrialResult>(d)) return std::get<TrialResult>(std::move(d));
    const std::vector<double> meaning = model::flatten_primal(std::get<V>(d));
    if (!finite(meaning))
      return on(TrialResult::discard(props::discards::overflow), t.term, t.type);
    // the three runs share the term's names, binder types, free table and first summaries
    RunSetUp set_up(t.term, run_options(c).free_types);
    const auto bp = ground_result(normalise(set_up, run_options(c)));
    const auto lo = ground_result(normalise(set_up, run_options(c, Strategy::lo)));
    const auto rnd = ground_result(normalise(set_up, run_options(c, Strategy::random, seed())));
    TrialResult r = same_numbers(bp, "S_bp", lo, "S_lo", t.term, c);
    if (is_pass(r)) r = same_numbers(bp, "S_bp", rnd, "S_rand", t.term, c);
    if (is_pass(r)) r = same_numbers(meaning, "model", bp, "normal form", t.term, c);
    return on(r, t.term, t.type);
  });
}
TrialResult unique_normal_forms(const PropertyContext& c) {
  return unique_normal_forms_of(draw_closed(c, true), drawn_seed, c);
}

// ---- P10 linearity of linear judgments (Table 4 remark L839, L426) ----
TrialResult linearity(const PropertyContext& c) {
  Typed t = *gen::closed_linear();
  while (!is_neg(t.type))
    t = *gen::closed_linear();
  return guarded([&] {
    const V f = denote_closed(t.term);
    const double s = choose(-200, 201) / 100.0, s2 = choose(-200, 201) / 100.0;
    const double al = choose(-200, 201) / 100.0, be = choose(-200, 201) / 100.0;
    const auto lhs = model::flatten_primal(f(V(al * s + be * s2)));
    const auto fs = model::flatten_primal(f(V(s)));
    const auto fs2 = model::flatten_primal(f(V(s2)));
    // αf(s) + βf(s') may cancel: compared relative to its summands (docs/model.md, "Tolerance
    // policy")
    std::vector<SumWithMagnitude> rhs;
    for (std::size_t i = 0; i < fs.size() && i < fs2.size(); ++i)
      rhs.push_back(props::add_terms(props::term(al * fs[i]), props::term(be * fs2[i])));
    TrialResult r =
        props::compare_sum_vectors(rhs, "αf(s)+βf(s')", props::terms(lhs), "f(αs+βs')",
                                   CheckKind::exact_value, c.tolerance(CheckKind::exact_value));
    if (is_pass(r)) {
      const auto zero = model::flatten_primal(f(V(0.0)));
      r = compare_vectors(std::vector<double>(zero.size(), 0.0), "0", zero, "f(0)",
                          CheckKind::exact_value, c);
    }
    return on(r, t.term, t.type);
  });
}

// ---- P13 type preservation of D and P14 its size (Lemma 18, L892; Table 3 L453-462) ----
TrialResult d_typing_at(const gen::Source& s, int d, const PropertyContext& c) {
  Names names(s.body);
  const Term dt = back(s.body, names, transform_options(c, d));
  Context dg;
  for (const auto& x : s.inputs)
    dg[x] = back_type(real_type(), d);
  TrialResult r = TrialResult::pass();
  if (const auto e = type_error(dt, dg, back_type(real_type(), d), signature()))
    r = TrialResult::fail(fmt::format("D_{}(t) ill-typed: {}", d, *e));
  return on(r, s.body, real_type());
}
TrialResult d_typing(const PropertyContext& c) {
  const gen::Source s = *gen::source(3);
  return d_typing_at(s, choose(1, 4), c);
}

// |D(t)| ≤ C·|t|: C is the largest per-node cost of Table 3 with the templates of primitives.cpp
// at d = 1 (D(div(t,u)) adds 2 frames, 4 variables, λ, pair, sum, 2 calls of ≤ 14 nodes: < 40).
constexpr long d_size_constant = 40;
TrialResult d_size_at(const gen::Source& s, const PropertyContext& c) {
  Names names(s.body);
  const Term dt = back(s.body, names, transform_options(c, 1));
  TrialResult r = TrialResult::pass();
  if (size_of(dt) > d_size_constant * size_of(s.body))
    r = TrialResult::fail(fmt::format("|D(t)| = {} > {}·|t| = {}", size_of(dt), d_size_constant,
                                      d_size_constant * size_of(s.body)));
  return on(r, s.body, real_type());
}
TrialResult d_size(const PropertyContext& c) {
  return d_size_at(*gen::source(3), c);
}

// ---- P15 D commutes with substitution: D(t{u/x}) = D(t){D(u)/x} up to α (Lemma 13(1), L896-903)
TrialResult d_substitution(const PropertyContext& c) {
  const gen::Source s = *gen::source(2);
  const gen::Source u = *gen::source(2);
  const std::string& x = s.inputs.front();
  Names names(s.body);
  const Term lhs = back(substitute(s.body, x, u.body), names, transform_options(c));
  const Term rhs = substitute(back(s.body, names, transform_options(c)), x,
                              back(u.body, names, transform_options(c)));
  TrialResult r = TrialResult::pass();
  if (alpha_key(lhs) != alpha_key(rhs))
    r = TrialResult::fail("D(t{u/x}) = " + print(lhs) + " but D(t){D(u)/x} = " + print(rhs));
  return on(r, s.body, real_type());
}

// ---- P16 D simulates reduction with constant overhead (Lemma 13(2), L541-544, L896-907) ----
// A source step t →ι t' is simulated by D(t) →X^{O(1)} D(t'). As in the proof, D is taken of the
// redex r →ι r' alone: D(C[r]) is D(C)[D(r)] (Lemma 13(1), property d-substitution), so the steps
// are D(r)'s. X is {ι} but for the numeric (12) and (14), where it is {ι, (7), (9), (10)}; the
// spec's erratum adds (8) and (11) to every X. (7)-(10) are simulated in one step, (12) in 16:
// (8), (9), (10) for each summand's pattern ES, (12), then (9), (10), (7), (11) for each
// summand's backpropagator, and (12). For (14), and (23), which the proof does not discuss, the
// reduct keeps residues such as λa.0[b := q·a] that no rule removes while a is symbolic (spec §6
// P16, erratum): there, and for the AC instances of (12), (13) and (17) in a sum of more than two
// summands (spec §9 P3, not the paper's binary rules), ⟦D(r)⟧ = ⟦D(r')⟧ is checked instead.
constexpr int simulation_steps = 16;           // the lemma's O(1): (12)'s, the largest
constexpr std::size_t simulation_terms = 2000; // the search's terms at most (then a discard)

bool numeric_rule(const std::string& rule) {
  return rule == "sum-12" || rule == "mul-14" || rule == "prim-23";
}

// Whether the step is simulated up to denotation only (above): (14), (23), and an AC instance.
bool simulated_semantically(const std::string& rule, const Node& redex) {
  const bool ac = rule == "sum-12" || rule == "sum-pair-13" || rule == "factor-17";
  return rule == "mul-14" || rule == "prim-23" ||
         (ac && redex.kind == Kind::add &&
          (redex.kids[0]->kind == Kind::add || redex.kids[1]->kind == Kind::add));
}

std::set<std::string> simulating_rules(const std::string& rule) {
  std::set<std::string> x{rule, "pair-8", "lin-subst-11"};
  if (numeric_rule(rule)) x.insert({"beta-7", "subst-9", "gc-10"});
  return x;
}

// The redex at `path` in t, with the types of the binders the path enters (t is a source term:
// every binder exponential, elaborated).
struct RedexInContext {
  Term redex;
  Context context;
};
RedexInContext redex_at(const Term& t, const std::vector<int>& path, Context context) {
  Term at = t;
  for (const int k : path) {
    const Node& n = *at;
    if (k == 0 && (n.kind == Kind::lam || n.kind == Kind::let || n.kind == Kind::let_pair)) {
      context[n.x.name] = n.x.type;
      if (n.kind == Kind::let_pair) context[n.y.name] = n.y.type;
    }
    at = n.kids.at(static_cast<std::size_t>(k));
  }
  return {at, std::move(context)};
}

// ⟦u⟧ with each free y : A of the redex bound to a drawn value of D(A) (probing's values).
V denote_in(const Term& u, const Context& back_context, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  Env<double> env;
  for (const auto& [y, type] : back_context)
    env = bind<double>(env, y, model::random_value(model_type(type), rng));
  return denote<double>(u, env);
}

TrialResult d_simulation(const PropertyContext& c) {
  const gen::Source s = *gen::source(2);
  // half the trials at the point, the inputs replaced by their numerals: the numeric redexes
  const bool at_point = choose(0, 2) == 0;
  Term t = s.body;
  if (at_point)
    for (std::size_t i = 0; i < s.inputs.size(); ++i)
      t = substitute(t, s.inputs[i], num(s.point[i]));
  return guarded([&] {
    RunOptions o = run_options(c);
    o.counter = nullptr; // the search's steps are not the semantics' firings
    o.free_types = at_point ? Context{} : s.context();
    const auto instances = Reducer(t, o).instances();
    if (instances.empty()) return on(TrialResult::discard("no redex"), t, real_type());
    const auto& picked =
        instances[static_cast<std::size_t>(choose(0, static_cast<int>(instances.size())))];
    const auto [r, context] = redex_at(t, picked.path, o.free_types);
    // r →ι r': one of the instances of ι at r's root
    o.free_types = context;
    Reducer at_r(r, o);
    const auto steps = at_r.all_steps();
    const auto here = at_r.instances();
    std::vector<std::size_t> contracta;
    for (std::size_t i = 0; i < here.size(); ++i)
      if (here[i].path.empty() && here[i].rule == picked.rule) contracta.push_back(i);
    const Term r2 = steps
                        .at(contracta.at(static_cast<std::size_t>(
                            choose(0, static_cast<int>(contracta.size())))))
                        .result;
    Names r_names(r), r2_names(r2);
    const Term dr = back(r, r_names, transform_options(c));
    const Term dr2 = back(r2, r2_names, transform_options(c));
    for (auto& [y, type] : o.free_types)
      type = back_type(type, 1);
    if (simulated_semantically(picked.rule, *r)) {
      const auto seed = *rc::gen::arbitrary<std::uint32_t>();
      TrialResult e = probe_equal(denote_in(dr, o.free_types, seed), "⟦D(r)⟧",
                                  denote_in(dr2, o.free_types, seed), "⟦D(r')⟧",
                                  back_type(typecheck(r, context, signature()).type, 1), c);
      if (!is_pass(e))
        e.reason = fmt::format("{} →{} {}: {}", print(r), picked.rule, print(r2), e.reason);
      return on(e, t, real_type());
    }
    const std::string goal = alpha_key(dr2);
    const std::set<std::string> x = simulating_rules(picked.rule);
    // breadth first from D(r), X-steps only, up to K steps
    std::set<std::string> seen{alpha_key(dr)};
    std::vector<Term> level{dr};
    bool found = seen.count(goal) > 0, capped = false;
    for (int k = 0; k < simulation_steps && !found && !level.empty() && !capped; ++k) {
      std::vector<Term> next;
      for (const Term& u : level)
        for (const Step& v : Reducer(u, o).all_steps()) {
          if (!x.count(v.rule)) continue;
          std::string key = alpha_key(v.result);
          found = found || key == goal;
          if (seen.insert(std::move(key)).second) next.push_back(v.result);
          capped = capped || seen.size() > simulation_terms;
        }
      level = std::move(next);
    }
    if (found) return on(TrialResult::pass(), t, real_type());
    if (capped) return on(TrialResult::discard("search-bound"), t, real_type());
    return on(TrialResult::fail(fmt::format(
                  "{} →{} {}: D of the redex does not reach {} in {} steps of {}", print(r),
                  picked.rule, print(r2), print(dr2), simulation_steps, fmt::join(x, ", "))),
              t, real_type());
  });
}

// ---- P21 semantic characterisation of D (spec §5.4; Thm 15 + Prop 12 + Prop 8) ----
// d and the seed of the vectors w_i are asked for where the random body draws them (after the
// certification), or fixed for an enumerated program.
TrialResult d_semantics_at(const gen::Source& s, const std::function<int()>& dimension,
                           const std::function<std::uint32_t()>& w_seed, const PropertyContext& c) {
  return guarded([&] {
    if (!certify(s)) return on(TrialResult::discard("uncertified"), s.body, real_type());
    const int d = dimension();
    Names names(s.body);
    const Term dt = back(s.body, names, transform_options(c, d));
    const std::size_t n = s.inputs.size();
    std::vector<Eigen::VectorXd> w;
    std::mt19937_64 rng(w_seed());
    Env<double> env;
    for (std::size_t i = 0; i < n; ++i) {
      w.push_back(model::random_vector(static_cast<std::size_t>(d), rng));
      const Eigen::VectorXd wi = w.back();
      const V lin = V::function([wi](const V& a) { // s ↦ s·w_i, right-nested R^d
        V out = model::scale(a.real(), V(wi(wi.size() - 1)));
        for (long k = wi.size() - 1; k-- > 0;)
          out = V::pair(model::scale(a.real(), V(wi(k))), out);
        return out;
      });
      env = bind<double>(env, s.inputs[i], V::pair(V(s.point[i]), lin));
    }
    const V out = denote<double>(dt, env);
    const Eigen::VectorXd x =
        Eigen::Map<const Eigen::VectorXd>(s.point.data(), static_cast<long>(n));
    const Eigen::VectorXd grad = model::gradient(model_function<double>(s), x);
    const double value = model::primal_of(
        model_function<double>(s)(std::vector<D>(s.point.begin(), s.point.end())).front());
    TrialResult r =
        props::compare_reals(value, "⟦t⟧(r)", model::primal_of(out.first().real()), "π1 ⟦D(t)⟧",
                             CheckKind::exact_value, c.tolerance(CheckKind::exact_value));
    if (!is_pass(r)) return on(r, s.body, real_type());
    std::vector<double> expected(static_cast<std::size_t>(d), 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < d; ++k)
        expected[static_cast<std::size_t>(k)] += grad(static_cast<long>(i)) * w[i](k);
    const auto actual = model::flatten_primal(out.second()(V(1.0)));
    return on(compare_vectors(expected, "W·∇F(r)", actual, "π2 ⟦D(t)⟧ 1", CheckKind::derivative, c),
              s.body, real_type());
  });
}
TrialResult d_semantics(const PropertyContext& c) {
  return d_semantics_at(
      draw_source(c, 3), [] { return *rc::gen::element(1, 3); },
      [] { return *rc::gen::arbitrary<std::uint32_t>(); }, c);
}

// ---- P19 gradient soundness (Cor. 16, L562-566, L992-996), vs the model, FD and intervals ----
TrialResult gradient_soundness(const PropertyContext& c) {
  return gradient_soundness_at(draw_source(c, 3), c);
}

} // namespace

TrialResult gradient_soundness_at(const gen::Source& s, const PropertyContext& c) {
  return guarded([&] {
    const auto cert = certify(s);
    if (!cert) return on(TrialResult::discard("uncertified"), s.body, real_type());
    const std::size_t n = s.inputs.size();
    const Eigen::VectorXd x =
        Eigen::Map<const Eigen::VectorXd>(s.point.data(), static_cast<long>(n));
    const Eigen::VectorXd exact = model::gradient(model_function<double>(s), x);
    const double value = model::primal_of(
        model_function<double>(s)(std::vector<D>(s.point.begin(), s.point.end())).front());
    if (!std::isfinite(value) || !exact.allFinite())
      return on(TrialResult::discard(props::discards::overflow), s.body, real_type());
    const GradientRun g =
        reduce_gradient(s.body, s.inputs, s.point, run_options(c), transform_options(c), true);
    std::vector<double> ex(exact.data(), exact.data() + exact.size());
    const auto magnitudes = [&] { return gradient_magnitudes(s); };
    TrialResult r =
        props::compare_reals(value, "⟦t⟧(r)", *g.value, "primal k", CheckKind::exact_value,
                             c.tolerance(CheckKind::exact_value));
    if (is_pass(r)) r = compare_gradients(ex, "model ∇", g.gradient, "read-back A", magnitudes, c);
    if (is_pass(r) && n <= 3) { // read-back B (d = n, injections)
      const Wrapper w = gradient_wrapper(s.body, s.inputs, s.point,
                                         transform_options(c, static_cast<int>(n)), false);
      RunOptions o = run_options(c);
      const auto inj = ground_result(normalise(injection_wrapper(w), o));
      r = compare_gradients(ex, "model ∇", inj, "read-back B", magnitudes, c);
    }
    // FD where its own error allows a verdict; where it cannot resolve, the trial is a discard
    // unless another oracle gives a verdict.
    TrialResult unresolved = TrialResult::pass();
    if (is_pass(r)) {
      const auto f = [&](const Eigen::VectorXd& p) {
        std::vector<D> xs(p.data(), p.data() + p.size());
        Eigen::VectorXd out(1);
        out(0) = model::primal_of(model_function<double>(s)(xs).front());
        return out;
      };
      const auto fd = model::fd_jacobian_estimate(f, x);
      const Eigen::VectorXd estimate = fd.jacobian.row(0), error = fd.error.row(0);
      TrialResult by_fd = props::compare_with_estimates(
          std::span<const double>(estimate.data(), static_cast<std::size_t>(estimate.size())),
          std::span<const double>(error.data(), static_cast<std::size_t>(error.size())), "FD",
          g.gradient, "read-back A", c.tolerance(CheckKind::finite_difference));
      (by_fd.kind == TrialResult::Kind::discard ? unresolved : r) = std::move(by_fd);
    }
    if (is_pass(r)) { // interval enclosure of the gradient over the certified box
      const auto enc = model::enclose(model_function<model::Interval>(s), cert->box);
      for (std::size_t i = 0; i < n && is_pass(r); ++i) {
        const model::Interval& iv = enc.jacobian(0, i);
        const Tolerance tol = c.tolerance(CheckKind::derivative);
        if (!model::encloses_rounded(iv, g.gradient[i], tol) &&
            !model::encloses_rounded(iv, g.gradient[i], tol, magnitudes().at(i)))
          r = TrialResult::fail(
              fmt::format("read-back A[{}] = {} outside the interval enclosure [{}, {}]", i,
                          g.gradient[i], iv.lower(), iv.upper()));
      }
    }
    if (is_pass(r)) r = std::move(unresolved);
    return on(r, s.body, real_type());
  });
}

namespace {

// ---- P12 soundness and linear cost of bp (Prop. 12, L521-533; proof L845-890), P11 size ----
constexpr long bp_step_constant = 12;
constexpr long bp_size_constant = 16;
TrialResult bp_soundness_at(const gen::Source& s, const SeedSource& seed,
                            const PropertyContext& c) {
  return guarded([&] {
    if (!certify(s)) return on(TrialResult::discard("uncertified"), s.body, real_type());
    Names names(s.body);
    const Term g = groundify(s.body, names);
    const std::string a = names.fresh("a");
    const Term b = backprop_graph(g, s.inputs, a, names, *book_for(c.mutant, c.user_rules.get()),
                                  c.rule_counter.get());
    // Def. 10 (L479-517; spec §4.10a): x1..xn, a : R ⊢ bp_{x,a}(G) : R × R^n
    Context gamma{{a, real_type()}};
    for (const std::string& x : s.inputs)
      gamma[x] = real_type();
    const Type bp_type = product_type(real_type(), euclidean(static_cast<int>(s.inputs.size())));
    if (const auto e = type_error(b, gamma, bp_type, signature()))
      return on(TrialResult::fail("bp(G) is not of type R × R^n (Def. 10): " + *e), s.body,
                real_type());
    if (size_of(b) > bp_size_constant * (size_of(g) + static_cast<long>(s.inputs.size())))
      return on(TrialResult::fail(
                    fmt::format("|bp(G)| = {} > {}·(|G| + n)", size_of(b), bp_size_constant)),
                s.body, real_type());
    Term t = let(exp_binder(a, real_type()), b, num(1));
    for (std::size_t i = 0; i < s.inputs.size(); ++i)
      t = let(exp_binder(s.inputs[i], real_type()), t, num(s.point[i]));
    // by Prop. 12's rules, (9)ⁿ, (10), (12), (14), and (23) for the primitives it omits (spec
    // erratum 13; tests/linear_negation/errata_test.cpp): Lemma 7's numeric rules
    RunOptions o = run_options(c, Strategy::random, seed());
    o.rules.numeric_only = true;
    const Run run = normalise(elaborate(t).term, o);
    const auto out = ground_result(run);
    const std::size_t n = s.inputs.size();
    const Eigen::VectorXd x =
        Eigen::Map<const Eigen::VectorXd>(s.point.data(), static_cast<long>(n));
    const Eigen::VectorXd exact = model::gradient(model_function<double>(s), x);
    std::vector<double> expected{model::primal_of(
        model_function<double>(s)(std::vector<D>(s.point.begin(), s.point.end())).front())};
    for (long i = 0; i < exact.size(); ++i)
      expected.push_back(exact(i));
    const auto magnitudes = [&] {
      std::vector<double> m{std::abs(expected.front())};
      for (const double mi : gradient_magnitudes(s))
        m.push_back(mi);
      return m;
    };
    TrialResult r = compare_gradients(expected, "(⟦G⟧, ∇G)", out, "bp normal form", magnitudes, c);
    if (is_pass(r) && run.steps > bp_step_constant * (size_of(g) + static_cast<long>(n)))
      r = TrialResult::fail(fmt::format("bp took {} steps > {}·(|G| + n) = {}", run.steps,
                                        bp_step_constant,
                                        bp_step_constant * (size_of(g) + static_cast<long>(n))));
    return on(r, s.body, real_type());
  });
}
TrialResult bp_soundness(const PropertyContext& c) {
  return bp_soundness_at(*gen::graph(3), drawn_seed, c);
}

// ---- P23 forward mode D→ (Prop. 1, L140-142) ----
TrialResult forward_soundness_at(const gen::Source& s, const PropertyContext& c) {
  return guarded([&] {
    if (!certify(s)) return on(TrialResult::discard("uncertified"), s.body, real_type());
    Names names(s.body);
    const Term g = groundify(s.body, names);
    const std::size_t n = s.inputs.size();
    const Eigen::VectorXd x =
        Eigen::Map<const Eigen::VectorXd>(s.point.data(), static_cast<long>(n));
    const Eigen::VectorXd exact = model::gradient(model_function<double>(s), x);
    const TransformOptions seeding = transform_options(c);
    std::vector<double> magnitudes; // computed for the first component that needs them
    for (std::size_t j = 0; j < n; ++j) {
      Term t = forward_graph(g, names, *seeding.book, seeding.counter);
      for (std::size_t i = 0; i < n; ++i) // Prop. 1's seeds: x_j := ⟨r_j, 1⟩, x_i := ⟨r_i, 0⟩
        t = let(exp_binder(s.inputs[i], product_type(real_type(), real_type())), t,
                forward_seed(*seeding.book, s.point[i], i, j, seeding.counter));
      const Run run = normalise(elaborate(t).term, run_options(c));
      const auto out = ground_result(run);
      const std::vector<double> exact_j{exact(static_cast<long>(j))}, out_j{out.at(1)};
      TrialResult r = compare_gradients(
          exact_j, fmt::format("model ∂{}", j + 1), out_j, fmt::format("D→ ∂{}", j + 1),
          [&] {
            if (magnitudes.empty()) magnitudes = gradient_magnitudes(s);
            return std::vector<double>{magnitudes.at(j)};
          },
          c);
      if (!is_pass(r)) return on(r, s.body, real_type());
    }
    return on(TrialResult::pass(), s.body, real_type());
  });
}
TrialResult forward_soundness(const PropertyContext& c) {
  return forward_soundness_at(*gen::graph(3), c);
}

// ---- P6 Lemma 7 (L419, L754-756, erratum 7): numeric administration is linear ----
TrialResult numeric_administration_at(const gen::Source& s, const SeedSource& seed,
                                      const PropertyContext& c) {
  return guarded([&] {
    const Term t = elaborate(s.closed()).term;
    RunOptions o = run_options(c, Strategy::random, seed());
    o.rules.numeric_only = true;
    const Run run = normalise(t, o);
    const long bound = weighted_size(t) + pair_count(t);
    TrialResult r = TrialResult::pass();
    if (run.steps > bound)
      r = TrialResult::fail(fmt::format("{} numeric steps > ‖t‖ + #pairs = {}", run.steps, bound));
    return on(r, s.body, real_type());
  });
}
TrialResult numeric_administration(const PropertyContext& c) {
  return numeric_administration_at(*gen::graph(3), drawn_seed, c);
}

// ---- P20 complexity (Cor. 16 + Thm 15, L466, L562-566): steps(W) = O(m + |G|) ----
// The ratio steps_S_bp(W(t,r)) / (steps of evaluating t[x:=r] + |t| + n) is bounded; half the
// trials draw a structured family with heavy sharing (E6 chains, the E8 RNN), where lost sharing
// shows as exponential growth.
constexpr double complexity_ratio = 12; // measured maximum on 1000 trials: between 6 and 7
TrialResult complexity_at(const gen::Source& s, const PropertyContext& c);
TrialResult complexity(const PropertyContext& c) {
  gen::Source s;
  const int which = std::max(0, choose(-3, 5)); // half generated terms, half families
  if (which == 0) {
    s = draw_source(c, 3);
  } else {
    std::string text;
    const int k = choose(6, 11); // 2^k blow-up when sharing is lost
    if (which == 1) text = family::square_chain(k);
    if (which == 2) text = family::square_chain_higher_order(k);
    if (which == 3) text = family::nested_chain(k);
    if (which == 4) {
      std::vector<double> list;
      const int n = choose(2, 7);
      for (int i = 0; i < n; ++i)
        list.push_back(choose(-100, 101) / 50.0);
      text = family::rnn(list);
    }
    const RealFunction f = real_function(parse_elaborated(text, Mode::source));
    s.body = f.body;
    s.inputs = f.inputs;
    for (std::size_t i = 0; i < f.inputs.size(); ++i)
      s.point.push_back(which == 4 ? 0.3 : 1.0);
  }
  return complexity_at(s, c);
}
TrialResult complexity_at(const gen::Source& s, const PropertyContext& c) {
  return guarded([&] {
    if (!certify(s)) return on(TrialResult::discard("uncertified"), s.body, real_type());
    const Run eval = normalise(elaborate(s.closed()).term, run_options(c));
    const double base =
        static_cast<double>(eval.steps + size_of(s.body) + static_cast<long>(s.inputs.size()));
    RunOptions o = run_options(c);
    const double ratio = c.option_real("complexity.ratio", complexity_ratio);
    o.fuel = static_cast<long>(ratio * base) + 1;
    try {
      const GradientRun g = reduce_gradient(s.body, s.inputs, s.point, o, transform_options(c));
      (void)g;
    } catch (const AdsemError& e) {
      // the steps are bounded, not the copies (the work cap: a discard, via guarded)
      if (e.diagnostic().kind != ErrorKind::fuel || WorkBudget::ran_over(e.diagnostic())) throw;
      return on(TrialResult::fail(fmt::format(
                    "gradient reduction needs more than {}·(eval steps {} + |t| + n) = {} steps",
                    ratio, eval.steps, o.fuel)),
                s.body, real_type());
    }
    return on(TrialResult::pass(), s.body, real_type());
  });
}

// ---- P24 RNN gradient against the corrected BPTT recurrence (Prop. 17, L612-618; Lemma 20) ----
TrialResult rnn_recurrence(const PropertyContext& c) {
  std::vector<double> list;
  const int n = choose(1, 6);
  for (int i = 0; i < n; ++i)
    list.push_back(choose(-100, 101) / 50.0);
  const double eps = choose(-100, 101) / 100.0, rho = choose(-100, 101) / 100.0;
  const std::string text = family::rnn(list);
  const Term shown = parse_term(text, signature(), Mode::source);
  return guarded([&] {
    // the term parsed once: parse_elaborated(text) is elaborate(parse_term(text))
    const RealFunction f = real_function(elaborate(shown, {}, true));
    const GradientRun g =
        reduce_gradient(f.body, f.inputs, {eps, rho}, run_options(c), transform_options(c), true);
    const auto rec = family::rnn_recurrence(list, eps, rho,
                                            c.mutant_is(mutant::paper_literal_prop17_recurrence));
    return on(compare_vectors({rec.value, rec.d_eps, rec.d_rho}, "recurrence",
                              {*g.value, g.gradient[0], g.gradient[1]}, "reduction",
                              CheckKind::derivative, c),
              shown, nullptr);
  });
}

PropertyDef def(std::string name, std::string kind, std::string summary, std::string citation,
                std::function<TrialResult(const PropertyContext&)> body, int max_size = 60) {
  return PropertyDef{calc,
                     std::string(calc) + "/" + name,
                     std::move(kind),
                     std::move(summary),
                     std::move(citation),
                     std::move(body),
                     max_size};
}

// An enumerated input's check (enumeration.hpp): the check at each fixed S_rand seed, the first
// outcome that is not a pass (a failure names its seed), else a pass.
TrialResult at_enumeration_seeds(const std::function<TrialResult(std::uint64_t)>& check) {
  TrialResult out = TrialResult::pass();
  for (const std::uint64_t seed : enumeration_seeds()) {
    out = check(seed);
    if (out.kind == TrialResult::Kind::fail || out.kind == TrialResult::Kind::error)
      out.reason += fmt::format(" (S_rand seed {})", seed);
    if (!is_pass(out)) return out;
  }
  return out;
}

// The closed term an enumerated input gives: a closed term, or a source program at its point,
// t[x1 := r1]…[xn := rn] (the closed-term properties check it too).
Typed closed_term(const std::any& in) {
  if (const auto* s = std::any_cast<gen::Source>(&in))
    return {elaborate(s->closed()).term, real_type()};
  return std::any_cast<const Typed&>(in);
}

// A computational graph (transform.hpp, groundify): variables, numerals, lets, sums and
// primitives, what gen::graph draws for bp, D→ and Lemma 7.
bool is_graph(const Term& t) {
  switch (t->kind) {
  case Kind::var:
  case Kind::num:
  case Kind::add:
  case Kind::prim:
  case Kind::let:
    return (t->kind != Kind::let || (t->x.type && is_real(t->x.type))) &&
           std::all_of(t->kids.begin(), t->kids.end(), is_graph);
  default:
    return false;
  }
}

// The check at each value, the first outcome that is not a pass (a failure names the value),
// else the last.
TrialResult at_each(const std::vector<int>& values, const char* what,
                    const std::function<TrialResult(int)>& check) {
  TrialResult out = TrialResult::pass();
  for (const int v : values) {
    out = check(v);
    if (out.kind == TrialResult::Kind::fail || out.kind == TrialResult::Kind::error)
      out.reason += fmt::format(" ({} = {})", what, v);
    if (!is_pass(out)) return out;
  }
  return out;
}

// The checks of one enumerated input (enumeration.hpp): each is the function the random body
// calls. A closed term's properties take Typed terms at R and R × R, and a source program's
// closed form; a source program's properties take a gen::Source, and a closed term is not one
// of their inputs (a `no-source-program` discard), nor, for those whose random programs are
// computational graphs (gen::graph), a program that is not one (`not-a-graph`).
void take_part_in_enumeration(std::vector<PropertyDef>& all) {
  using Check = std::function<TrialResult(const std::any&, const PropertyContext&)>;
  using TermCheck = std::function<TrialResult(const Typed&, const PropertyContext&)>;
  using SourceCheck = std::function<TrialResult(const gen::Source&, const PropertyContext&)>;
  const auto of_term = [](TermCheck check) -> Check {
    return
        [check](const std::any& in, const PropertyContext& c) { return check(closed_term(in), c); };
  };
  const auto of_source = [](SourceCheck check, bool graph = false) -> Check {
    return [check, graph](const std::any& in, const PropertyContext& c) {
      const auto* s = std::any_cast<gen::Source>(&in);
      if (s == nullptr) return TrialResult::discard("no-source-program");
      if (graph && !is_graph(s->body)) return TrialResult::discard("not-a-graph");
      return check(*s, c);
    };
  };
  // a check of (input, S_rand seed) at each fixed seed (at_enumeration_seeds)
  const auto at_seeds = [](auto check) {
    return [check](const auto& input, const PropertyContext& c) {
      return at_enumeration_seeds([&](std::uint64_t s) {
        return check(
            input, [s] { return s; }, c);
      });
    };
  };
  const std::vector<std::pair<std::string, Check>> checks = {
      {"round-trip",
       of_term([](const Typed& t, const PropertyContext&) { return round_trip_of(t); })},
      {"normal-forms-are-values", of_term(normal_forms_are_values_of)},
      {"subject-reduction", of_term(at_seeds(subject_reduction_of))},
      {"normalisation", of_term(at_seeds(normalisation_of))},
      {"step-soundness", of_term([](const Typed& t, const PropertyContext& c) {
         return at_enumeration_seeds([&](std::uint64_t s) {
           return step_soundness_at(t, s, c, model::work_cap, static_cast<std::uint32_t>(s));
         });
       })},
      {"equivalence-postponement", of_term(at_seeds(equivalence_postponement_of))},
      // every ≡ step of the term, not one drawn
      {"equivalence-soundness", of_term(equivalence_soundness_of_every_step)},
      {"equivalence-bisimulation", of_term(equivalence_bisimulation_of_every_step)},
      {"unique-normal-forms", of_term(at_seeds(unique_normal_forms_of))},
      // D_d at every d the random body draws (1..3), and d-semantics' two (1 and 3) with the
      // vectors w_i from the first S_rand seed
      {"d-typing", of_source([](const gen::Source& s, const PropertyContext& c) {
         return at_each({1, 2, 3}, "d", [&](int d) { return d_typing_at(s, d, c); });
       })},
      {"d-size", of_source(d_size_at)},
      {"d-semantics", of_source([](const gen::Source& s, const PropertyContext& c) {
         return at_each({1, 3}, "d", [&](int d) {
           return d_semantics_at(
               s, [d] { return d; },
               [] { return static_cast<std::uint32_t>(enumeration_seeds().front()); }, c);
         });
       })},
      {"gradient-soundness", of_source(gradient_soundness_at)},
      {"complexity", of_source(complexity_at)},
      {"bp-soundness", of_source(at_seeds(bp_soundness_at), true)},
      {"forward-soundness", of_source(forward_soundness_at, true)},
      {"numeric-administration", of_source(at_seeds(numeric_administration_at), true)},
  };
  for (PropertyDef& p : all)
    for (const auto& [name, check] : checks)
      if (p.name == std::string(calc) + "/" + name)
        p.check_input = [check](const PropertyContext& c, const std::any& in) {
          return check(in, c);
        };
}

} // namespace

std::vector<PropertyDef> properties() {
  std::vector<PropertyDef> all = {
      def("round-trip", "round-trip", "print then parse gives an α-equal term", "spec §2.7",
          round_trip),
      def("subject-reduction", "typing", "every S_rand step keeps the type (linear or not)",
          "seed 002, Prop. 2, L407, proof L712-719", subject_reduction),
      def("normal-forms-are-values", "adequacy",
          "closed βℓ-normal forms are values; numeral tuples at Euclidean type",
          "seed 002, Prop. 5, L413, proof L744-748", normal_forms_are_values),
      def("normalisation", "termination", "S_bp and S_rand reach a normal form within the fuel",
          "seed 002, Prop. 6, L415, proof L750-752", normalisation),
      def("step-soundness", "soundness", "every rewriting step preserves the denotation (probing)",
          "seed 002, Prop. 8, L428", step_soundness),
      def("equivalence-soundness", "soundness",
          "every ≡ step (18)-(22) preserves type and denotation",
          "seed 002, Table 2d L369-383, Prop. 2, Prop. 8", equivalence_soundness),
      def("equivalence-bisimulation", "soundness",
          "after a ≡ step every rule with a redex still has one (weak form of Lemma 3; not (17) "
          "after (20))",
          "seed 002, Lemma 3, L409, proof L721-738", equivalence_bisimulation),
      def("equivalence-postponement", "confluence",
          "≡ steps interleaved with S_rand steps leave the S_bp normal form unchanged (weak form "
          "of Prop. 4)",
          "seed 002, Prop. 4, L411, proof L740 (spec §6 P3)", equivalence_postponement),
      def("unique-normal-forms", "adequacy",
          "S_bp, S_lo, S_rand and the model agree at Euclidean type", "seed 002, Cor. 9, L432-434",
          unique_normal_forms),
      def("linearity", "soundness", "closed values of type R -o R^d denote linear maps",
          "seed 002, Table 4 remark L839, L426", linearity),
      def("d-typing", "typing", "D_d(t) : D_d(A) for d in 1..3",
          "seed 002, Table 3 L453-462, Lemma 18", d_typing),
      def("d-size", "cost", "|D(t)| <= 40 |t| at d = 1", "seed 002, Lemma 18, L892", d_size),
      def("d-substitution", "typing", "D(t{u/x}) is α-equal to D(t){D(u)/x}",
          "seed 002, Lemma 13(1), L896-903 (the black-box principle L257)", d_substitution),
      def("d-simulation", "typing",
          "a source step t → t' is simulated by D(t) → D(t') in at most 16 steps (α-equal; "
          "denotations for (14) and (23))",
          "seed 002, Lemma 13(2), L541-544, L896-907 (spec §6 P16, erratum)", d_simulation),
      def("d-semantics", "ad-correctness", "⟦D_d(t)⟧((r_i, w_i)) = (F(r), Σ ∂_iF(r) w_i)",
          "seed 002, Thm 15 + Prop. 12 + Prop. 8 (spec §5.4)", d_semantics),
      def("gradient-soundness", "ad-correctness",
          "the βℓ-normal form of Cor. 16's wrapper reads back ∇⟦t⟧(r): model, read-back B, FD, "
          "intervals",
          "seed 002, Cor. 16, L562-566, L992-996", gradient_soundness),
      def("bp-soundness", "ad-correctness",
          "bp(G)[a:=1][x:=r] normalises to (⟦G⟧, ∇G) by (9)ⁿ,(10),(12),(14),(23) in O(|G|) "
          "steps; |bp| = O(|G|+n)",
          "seed 002, Def. 10, Lemma 11 L519, Prop. 12 L521-533", bp_soundness),
      def("forward-soundness", "ad-correctness", "D→(G) seeded with e_j gives ∂_j⟦G⟧",
          "seed 002, Prop. 1, L140-142", forward_soundness),
      def("numeric-administration", "cost",
          "(9)ⁿ,(10),(12),(13),(14),(23) take <= ‖t‖ + #pairs steps",
          "seed 002, Lemma 7, L419, L754-756 (erratum 7)", numeric_administration),
      def("complexity", "cost",
          "steps of the gradient wrapper <= 12 (eval steps + |t| + n), incl. E6/E8 sharing",
          "seed 002, Thm 15, Cor. 16, L466, L562-566, L646-652", complexity),
      def("rnn-recurrence", "ad-correctness",
          "the RNN of §6 differentiates to the corrected BPTT recurrence",
          "seed 002, Prop. 17 L612-618, Lemma 20 L1012-1026 (erratum 4)", rnn_recurrence),
  };
  take_part_in_enumeration(all);
  return all;
}

TrialResult step_soundness_at(const Typed& t, std::uint64_t strategy_seed, const PropertyContext& c,
                              long work_cap, std::optional<std::uint32_t> probe_seed) {
  return guarded([&] {
    Reducer r(t.term, run_options(c, Strategy::random, strategy_seed));
    // One budget for every denotation of the trial (denotation.hpp, DenoteBudget).
    const auto budget = std::make_shared<DenoteBudget>(work_cap);
    V before = denote_closed(t.term, budget);
    for (int n = 0; n < 400; ++n) {
      const auto s = r.step();
      if (!s) break;
      const V after = denote_closed(s->result, budget);
      TrialResult res = probe_equal(before, "before " + s->rule, after, "after " + s->rule, t.type,
                                    c, probe_seed);
      if (!is_pass(res)) {
        res.trace = {s->rule + ": " + print(s->result)};
        return on(res, t.term, t.type);
      }
      before = after;
    }
    return on(TrialResult::pass(), t.term, t.type);
  });
}

} // namespace adsem::linear_negation
