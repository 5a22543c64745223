// Properties of evaluation contexts (spec §6.1 P-TY-2, P-TY-3; §6.3 P-DEN-2, P-DEN-3): each body
// decomposes a generated term M = E[R] (syntax/simple_diff/contexts.hpp) and checks a lemma of
// seed 003 Sections 3 and 5 about E and R.
#include <algorithm>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "properties/simple_diff/trial.hpp"
#include "semantics/core/model_errors.hpp"
#include "semantics/simple_diff/denotation.hpp"
#include "syntax/simple_diff/contexts.hpp"
#include "syntax/simple_diff/names.hpp"

namespace adsem::simple_diff {

namespace {

using props::PropertyContext;
using props::TrialResult;
using Verdict = TrialResult::Kind;

std::string path_text(const Path& p) {
  std::string out = "[";
  for (const int i : p)
    out += (out.size() > 1 ? "," : "") + std::to_string(i);
  return out + "]";
}

// Kleene equality of two model results at one point (exact values, or derivative tolerance when
// the term has an rd, whose sums the two sides may associate differently).
TrialResult kleene(const oracle::Denotation& a, const std::string& what_a,
                   const oracle::Denotation& b, const std::string& what_b, CheckKind kind,
                   const PropertyContext& context) {
  using S = oracle::Denotation::Status;
  if (a.status == S::fuel || b.status == S::fuel) return TrialResult::discard("fuel");
  if (a.status != b.status)
    return TrialResult::fail(fmt::format(
        "{} is {} but {} is {}", what_a, a.status == S::defined ? "defined" : "⊥: " + a.message,
        what_b, b.status == S::defined ? "defined" : "⊥: " + b.message));
  if (a.status == S::undefined) return TrialResult::pass();
  return oracle::compare_vectors(a.value, what_a, b.value, what_b, kind, context);
}

std::vector<double> flatten_model(const denotation::MValue<double>& v) {
  std::vector<double> out;
  for (const model::Dual<double>& d : denotation::flatten_value<double>(v))
    out.push_back(d.primal());
  return out;
}

CheckKind value_kind(const Term& m) {
  const auto tags = gen::construct_tags(m);
  return std::find(tags.begin(), tags.end(), "rd") != tags.end() ? CheckKind::derivative
                                                                 : CheckKind::exact_value;
}

// The truth of a boolean redex pred(V) at X, through `if R_bool then 1 else 0` (nullopt: ⊥).
std::optional<bool> truth_at(const Term& b, const Trial& tr, const Options& options,
                             bool& unknown) {
  const oracle::Operational op =
      oracle::run(mk::if_(b, mk::constant(1), mk::constant(0)), tr.t.x, tr.t.t, tr.at, options);
  unknown = op.unknown;
  if (!op.value) return std::nullopt;
  return op.value->front() == 1.0;
}

// P-TY-2, Lemma 3.1 (seed 003 lines 295-306): a non-value term is E[R] or E[R_bool] in exactly
// one way. decompose follows the context grammar in evaluation order; the brute-force enumeration
// of every evaluation-position occurrence of a redex must find that one and no other.
TrialResult unique_decomposition(const Trial& tr, const PropertyContext&) {
  const auto d = decompose(tr.t.term);
  const std::vector<Decomposition> all = all_redex_occurrences(tr.t.term);
  if (!d) {
    if (all.empty()) return tr.done(TrialResult::pass()); // a value: no redex
    return tr.done(
        TrialResult::fail(fmt::format("no decomposition, but a redex in evaluation position at {}",
                                      path_text(all.front().hole))));
  }
  if (all.size() != 1)
    return tr.done(
        TrialResult::fail(fmt::format("{} redexes in evaluation position ({} and {})", all.size(),
                                      path_text(all.front().hole), path_text(all.back().hole))));
  if (all.front().hole != d->hole)
    return tr.done(TrialResult::fail(fmt::format("decompose finds {} but the redex is at {}",
                                                 path_text(d->hole), path_text(all.front().hole))));
  if (!alpha_equal(plug(tr.t.term, d->hole, d->redex), tr.t.term))
    return tr.done(TrialResult::fail("E[R] is not the term"));
  return tr.done(TrialResult::pass());
}

// P-TY-3, Lemma 3.2 (seed 003 lines 310-314): if E[R] : T then R : U for one U, and E[N] : T for
// every N : U (a generated term; contexts do not go under binders, so N sees the same Γ).
TrialResult context_typing(const PropertyContext& context) {
  const Trial tr = draw(context);
  const auto d = decompose(tr.t.term);
  if (!d) return tr.done(TrialResult::discard("value"));
  const TypeContext gamma = {{tr.t.x, tr.t.t}};
  Term replacement;
  if (d->redex->is_boolean()) {
    replacement = *rc::gen::arbitrary<bool>() ? mk::b_true() : mk::b_false();
  } else {
    const Typed r = typecheck(d->redex, primitives(), gamma);
    gen::TermOptions o;
    o.param = tr.t.t;
    o.x = tr.t.x; // a rule file's targeted instance names its parameter otherwise (a:real. ...)
    o.result = r.type;
    o.max_size = 12;
    replacement = (*gen::open_term(o)).term;
  }
  const Term plugged = plug(tr.t.term, d->hole, replacement);
  try {
    const Typed typed = typecheck(plugged, primitives(), gamma);
    if (!same_type(typed.type, tr.t.type))
      return tr.done(TrialResult::fail("E[N] has type " + print_type(typed.type)));
  } catch (const AdsemError& e) {
    return tr.done(TrialResult::fail(std::string("E[N] does not type-check: ") + e.what()));
  }
  return tr.done(TrialResult::pass());
}

// P-DEN-2, Lemma 5.2 (seed 003 lines 815-821): [[R]] ≃ [[N]] gives [[E[R]]] ≃ [[E[N]]], for N the
// value of R (by eval) and for N the trace of R (M ⇝ C, Thm. 6.2(2) at the point).
TrialResult compositionality(const Trial& tr, const PropertyContext& context) {
  const auto d = decompose(tr.t.term);
  if (!d) return tr.done(TrialResult::discard("value"));
  const oracle::Denotation whole = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
  if (!whole.uncertified.empty()) return tr.done(TrialResult::discard(whole.uncertified));
  const Options options = oracle::machine_options(context);
  const Type redex_type =
      d->redex->is_boolean() ? nullptr : typecheck(d->redex, primitives(), {{tr.t.x, tr.t.t}}).type;
  Term by_value;
  if (d->redex->is_boolean()) {
    bool unknown = false;
    const auto b = truth_at(d->redex, tr, options, unknown);
    if (!b) return tr.done(TrialResult::discard(unknown ? "fuel" : "undefined-redex"));
    by_value = *b ? mk::b_true() : mk::b_false();
  } else {
    const oracle::Operational r = oracle::run(d->redex, tr.t.x, tr.t.t, tr.at, options);
    if (!r.value) return tr.done(TrialResult::discard(r.unknown ? "fuel" : "undefined-redex"));
    if (!same_type(r.type, redex_type)) // Prop. 3.6
      return tr.done(TrialResult::fail("R's value has type " + print_type(r.type)));
    by_value = value_term(unflatten(r.type, *r.value));
  }
  const CheckKind kind = value_kind(tr.t.term);
  const Term e_value = plug(tr.t.term, d->hole, by_value);
  auto result = kleene(whole, "[[E[R]]]", oracle::denote(e_value, tr.t.x, tr.t.t, tr.at, false),
                       "[[E[V]]]", kind, context);
  if (result.kind != Verdict::pass || d->redex->is_boolean()) return tr.done(result);
  Term trace;
  try {
    trace = symbolic_evaluate(d->redex, {{tr.t.x, unflatten(tr.t.t, tr.at)}}, options).trace;
  } catch (const AdsemError& e) {
    if (is_unknown(e)) return tr.done(TrialResult::discard("fuel"));
    return tr.done(TrialResult::fail(std::string("R evaluates but R ⇝ fails: ") + e.what()));
  }
  try { // Prop. 3.6: C is a trace term over Γ, of R's type
    const Typed typed = typecheck(trace, primitives(), {{tr.t.x, tr.t.t}});
    if (!is_trace_term(*trace) || !same_type(typed.type, redex_type))
      return tr.done(TrialResult::fail("R ⇝ C, but C is not a trace term of R's type"));
  } catch (const AdsemError& e) {
    return tr.done(TrialResult::fail(std::string("R ⇝ C, an ill-typed trace: ") + e.what()));
  }
  return tr.done(
      kleene(whole, "[[E[R]]]",
             oracle::denote(plug(tr.t.term, d->hole, trace), tr.t.x, tr.t.t, tr.at, false),
             "[[E[C]]]", kind, context));
}

// P-DEN-3, Lemma 5.3 (seed 003 lines 823-839): [[E[R]]]γ↓ implies [[R]]γ↓, and then
// [[E[R]]]γ ≃ [[E[z]]](γ[[[R]]γ / z]) for a fresh z (for a boolean hole, E[b] with b = [[R]]γ).
TrialResult strictness(const Trial& tr, const PropertyContext& context) {
  const auto d = decompose(tr.t.term);
  if (!d) return tr.done(TrialResult::discard("value"));
  const oracle::Denotation whole = oracle::denote(tr.t.term, tr.t.x, tr.t.t, tr.at);
  if (!whole.uncertified.empty()) return tr.done(TrialResult::discard(whole.uncertified));
  if (whole.status != oracle::Denotation::Status::defined)
    return tr.done(TrialResult::discard("undefined-point"));
  const model::DiffContext dc;
  const denotation::MEnv<double> gamma = {
      {tr.t.x, denotation::unflatten_value<double>(
                   tr.t.t, std::vector<model::Dual<double>>(tr.at.begin(), tr.at.end()))}};
  try {
    oracle::Denotation hole;
    if (d->redex->is_boolean()) {
      const Term probe = mk::if_(d->redex, mk::constant(1), mk::constant(0));
      const double b = denotation::denote<double>(probe, gamma, dc).real().primal();
      hole.value = flatten_model(denotation::denote<double>(
          plug(tr.t.term, d->hole, b == 1.0 ? mk::b_true() : mk::b_false()), gamma, dc));
    } else {
      const auto r = denotation::denote<double>(d->redex, gamma, dc);
      NameSupply names;
      names.avoid_all(*tr.t.term);
      names.avoid(tr.t.x);
      const std::string z = names.fresh("z");
      denotation::MEnv<double> extended = gamma;
      extended.emplace_back(z, r);
      hole.value = flatten_model(
          denotation::denote<double>(plug(tr.t.term, d->hole, mk::var(z)), extended, dc));
    }
    return tr.done(oracle::compare_vectors(whole.value, "[[E[R]]]γ", hole.value, "[[E[z]]]γ[z]",
                                           CheckKind::exact_value, context));
  } catch (const model::Undefined& e) {
    return tr.done(TrialResult::fail(
        std::string("[[E[R]]] is defined but [[R]] (or [[E[z]]]) is not: ") + e.what()));
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::fuel) return tr.done(TrialResult::discard("fuel"));
    throw;
  }
}

} // namespace

std::vector<props::PropertyDef> context_properties() {
  return {
      def("unique-decomposition", "typing",
          "a non-value term is E[R] or E[R_bool] in exactly one way",
          "seed 003, Lemma 3.1, lines 295-306; spec P-TY-2", draw_term, unique_decomposition),
      def("context-typing", "typing", "E[R] : T gives R : U, and E[N] : T for every N : U",
          "seed 003, Lemma 3.2, lines 310-314; spec P-TY-3", context_typing),
      def("compositionality", "soundness",
          "[[E[R]]] = [[E[V]]] = [[E[C]]] for R's value V and trace C",
          "seed 003, Lemma 5.2, lines 815-821; spec P-DEN-2", draw_term, compositionality),
      def("strictness", "soundness",
          "[[E[R]]] defined gives [[R]] defined and [[E[R]]] = [[E[z]]] at z = [[R]]",
          "seed 003, Lemma 5.3, lines 823-839; spec P-DEN-3", draw_term, strictness),
  };
}

} // namespace adsem::simple_diff
