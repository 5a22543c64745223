// Syntactic and strategy properties (spec §6 P3-P6; seed 000 Cor. 4.7 L494-496, Cor. 5.2
// L540-542, Lemma 3.8 L367-369, Lemma B.1 L760).
#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/pullback/bodies.hpp"
#include "properties/pullback/frontend.hpp"
#include "properties/pullback/support.hpp"
#include "properties/pullback/user_rules.hpp"
#include "semantics/pullback/anf.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::bodies {

using namespace support;

namespace {
// Raw terms, functional-input and symbolic queries (spec §10 templates 3-5).
Term mixed_term() {
  switch (*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 5))) {
  case 0:
    return (*gen::functional_query()).term();
  case 1:
    return (*gen::symbolic_query()).term();
  default:
    return *gen::closed_term();
  }
}
// mixed_term, and a quarter open queries: rows 16b, 16c, 17 and Σ3 fire only under a free
// variable (spec §10 "Coverage feedback"). For the properties that stay cheap on their longer
// bodies (subject reduction type-checks every premise step: several times slower).
Term mixed_or_open_term() {
  if (*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 4)) == 0)
    return (*gen::open_query()).term();
  return mixed_term();
}
Context context_of(const Term& t) {
  Context g;
  for (const auto& [x, ty] : free_var_types(t))
    g[x] = ty;
  return g;
}
} // namespace

// SYN: the printer's output re-parses to an α-equal term (spec §2.7).
TrialResult round_trip_of(const Term& t) {
  const std::string text = print(t);
  const Term back = parse_closed(text);
  TrialResult r = TrialResult::pass();
  if (!alpha_equal(back, t))
    r = TrialResult::fail("re-parsed as a different term: " + print(back));
  else if (!same_type(type_of(back), type_of(t)))
    r = TrialResult::fail("re-parsed at type " + type_text(type_of(back)));
  return on(r, t);
}
TrialResult round_trip(const PropertyContext&) {
  return round_trip_of(*gen::closed_term());
}

// P3, Cor. 4.7 (L494-496): every step (premise steps included) preserves the type, checked with
// lin⁺ (ID-3). Strict-lin failures of reducts are the documented gap (erratum #3), not failures.
TrialResult subject_reduction_of(const Term& t, const PropertyContext& context) {
  return guarded(t, [&] {
    Machine m(rules_for(context), run_options(context));
    std::optional<std::string> failure;
    // One memo for the run: each term is checked in full, but a node an earlier check of the run
    // already typed in the same bindings is not walked again (syntax/pullback/typecheck.hpp).
    CheckMemo memo(LinMode::plus);
    m.observe([&](const Term& before, const Step& s, bool premise) {
      if (failure) return;
      const Context g = context_of(before);
      const Type a = typecheck(before, g, memo);
      Type b;
      try {
        b = typecheck(s.result, g, memo);
      } catch (const AdsemError& e) {
        failure = fmt::format("{}step {} broke typing: {}", premise ? "premise " : "", s.rule,
                              e.diagnostic().render());
        return;
      }
      if (!same_type(a, b))
        failure = fmt::format("step {} changed the type from {}", s.rule, type_text(a));
    });
    m.normalise(t);
    return on(failure ? TrialResult::fail(*failure) : TrialResult::pass(), t);
  });
}
TrialResult subject_reduction(const PropertyContext& context) {
  const auto target = targeted_term(context);
  return subject_reduction_of(target ? *target : mixed_term(), context);
}

// P4, Cor. 5.2 (L540-542): normalisation ends within the budget (10⁵ steps, premises included).
// Overrunning it is a failure to investigate, not a discard (spec §6 P4).
TrialResult strong_normalisation_of(const Term& t, const PropertyContext& context) {
  try {
    Machine m(rules_for(context), run_options(context, 100'000));
    m.normalise(t);
    return on(TrialResult::pass(), t);
  } catch (const model::Undefined&) {
    return on(TrialResult::discard("undefined-point"), t);
  } catch (const AdsemError& e) {
    if (e.diagnostic().kind == ErrorKind::domain)
      return on(TrialResult::discard("undefined-point"), t);
    if (e.diagnostic().kind != ErrorKind::fuel) throw;
    return on(TrialResult::fail("no normal form within the budget: " + e.diagnostic().message), t);
  }
}
TrialResult strong_normalisation(const PropertyContext& context) {
  const auto target = targeted_term(context);
  return strong_normalisation_of(target ? *target : mixed_or_open_term(), context);
}

// P5, Lemma 3.8 (L367-369): along a run, every term has at most one decomposition C[r] by the
// context grammar read relationally, it is the one `step` contracts, and normal forms have none.
TrialResult unique_decomposition_of(const Term& t, const PropertyContext& context) {
  return guarded(t, [&] {
    Machine m(rules_for(context), run_options(context));
    Machine enumerator(rules_for(context), run_options(context, 1'000'000));
    Term current = t;
    for (int n = 0; n < 40; ++n) {
      const auto ds = enumerator.decompositions(current);
      const auto s = m.step(current);
      if (ds.size() > 1)
        return on(
            TrialResult::fail(fmt::format("{} decompositions of {}", ds.size(), print(current))),
            t);
      if (!s && !ds.empty())
        return on(
            TrialResult::fail("a decomposition exists but step finds none: " + print(current)), t);
      if (s && ds.empty())
        return on(TrialResult::fail("step contracts (" + s->rule +
                                    ") a term with no decomposition: " + print(current)),
                  t);
      if (!s) return on(TrialResult::pass(), t);
      if (ds.front() != s->path)
        return on(TrialResult::fail("step contracts a different redex (" + s->rule + ")"), t);
      current = s->result;
    }
    return on(TrialResult::pass(), t);
  });
}
TrialResult unique_decomposition(const PropertyContext& context) {
  const auto target = targeted_term(context);
  return unique_decomposition_of(target ? *target : mixed_or_open_term(), context);
}

// P6, Lemma B.1 (L760), §3.2 (L207-219): ANF(P) is a let series of elementary terms with atom
// arguments (recursively), it is final, and ANF is idempotent up to α; both variants (ID-9). ANF
// is the rules' own (their A* entry), so a patch of it is what is checked.
TrialResult anf_shape_at(const gen::Query& q, const PropertyContext& context) {
  const Rules rules = rules_for(context);
  const auto anf_of = [&](const Term& body, bool literal) {
    return anf_by_rules(rules, literal, q.y, q.sigma, body, q.omega);
  };
  const Term a = anf_of(q.body, false);
  const Term literal = anf_of(q.body, true);
  TrialResult r = TrialResult::pass();
  if (!is_let_series(a) || !is_final(a, q.y))
    r = TrialResult::fail("ANF is not a let series: " + print(a));
  else if (!is_let_series(literal))
    r = TrialResult::fail("literal ANF is not a let series: " + print(literal));
  else if (const Term again = anf_of(a, false); !alpha_equal(again, a))
    r = TrialResult::fail("ANF is not idempotent: " + print(again));
  return on(r, q.body);
}
TrialResult anf_shape(const PropertyContext& context) {
  return anf_shape_at(*gen::first_order_query(false, 3), context);
}

} // namespace adsem::pullback::bodies
