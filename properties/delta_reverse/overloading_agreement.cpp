// The paper's §8 (L629-641) reads Drev as an implementation technique: running the source program
// with reals as (primal, Delta reference) and a growable tape, "overloading" instead of a
// source-to-source translation, does what Drev{e}'s run does. Spec §4.2 asks for both and for a
// cross-check (P14): on every drawn program and point, the overloading run and the translated run,
// wrapped alike, make the same tape (same ids, same Delta terms, same coefficients bit for bit),
// return the same dual numbers and give the same gradient bit for bit. That identity is the
// paper's book's: a user's rule file (--rules) rewrites where it matches, in the source machine
// the overloading run is and in the target machine Drev's run is, which do not meet the same
// terms (a sound `A * (B + C) --> A * B + A * C` fires in the first only), so with a file the
// runs are two sound implementations of one derivative and agree in value and gradient within the
// tolerance policy, not tape for tape.
#include "properties/delta_reverse/overloading_agreement.hpp"

#include <fmt/format.h>

#include <optional>

namespace adsem::delta_reverse {

using props::PropertyContext;
using props::TrialResult;
using namespace support;

namespace {

// Where two runs' tapes first differ, or nothing.
std::optional<std::string> tape_difference(const ReverseRun& drev, const ReverseRun& over) {
  const std::size_t n = std::min(drev.binds.size(), over.binds.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto& [id1, rhs1] = drev.binds[i];
    const auto& [id2, rhs2] = over.binds[i];
    if (id1 != id2 || !same_delta(rhs1, rhs2))
      return fmt::format("binding {}: {} = {} by Drev, {} = {} by overloading", i + 1, id1,
                         print_delta(rhs1), id2, print_delta(rhs2));
  }
  if (drev.binds.size() != over.binds.size())
    return fmt::format("{} bindings by Drev, {} by overloading", drev.binds.size(),
                       over.binds.size());
  if (drev.next != over.next) return "the next fresh ids differ";
  if (!same_delta(drev.final_delta, over.final_delta))
    return "the results' Deltas differ: " + print_delta(drev.final_delta) + " by Drev, " +
           print_delta(over.final_delta) + " by overloading";
  return std::nullopt;
}

void add_tape(TrialResult& r, const std::string& who, const ReverseRun& run) {
  for (const auto& [id, rhs] : run.binds)
    r.trace.push_back(who + ": " + std::to_string(id) + " = " + print_delta(rhs));
}

// One run, or the error it stopped with (a domain error must stop both runs).
template <class F> std::pair<std::optional<ReverseRun>, std::optional<AdsemError>> attempt(F run) {
  try {
    return {run(), std::nullopt};
  } catch (const AdsemError& e) {
    return {std::nullopt, e};
  }
}

TrialResult overloading_agrees(const PropertyContext& context) {
  return overloading_agrees_at(draw(context), random_like, context);
}

} // namespace

TrialResult overloading_agrees_at(const Drawn& d, const DrawLike& like,
                                  const PropertyContext& context) {
  return guarded([&] {
    const Trial trial = prepare(d, context, like);
    const auto [drev, drev_error] = attempt([&] {
      return reverse(d.program, d.s, trial.dt, Wrapper::seeded, EvalImpl::map, trial.setup,
                     trial.fuel);
    });
    const auto [over, over_error] = attempt([&] {
      return reverse_overloaded(d.program, d.s, trial.dt, Wrapper::seeded, EvalImpl::map,
                                trial.setup, trial.fuel);
    });
    if (drev_error && over_error) throw *drev_error; // both stopped: guarded counts the reason
    // A rule file's rewrite may drop or move a partial subterm (`fst (A, B) --> A` leaves B
    // unevaluated) in one run and not the other: the point is then outside one run's domain, a
    // counted discard, as both runs stopping is.
    if (context.user_rules && (drev_error || over_error))
      throw drev_error ? *drev_error : *over_error;
    if (drev_error || over_error)
      return on(TrialResult::fail(drev_error
                                      ? "Drev stopped (" + std::string(drev_error->what()) +
                                            ") where overloading did not"
                                      : "overloading stopped (" + std::string(over_error->what()) +
                                            ") where Drev did not"),
                d.m);
    if (context.user_rules) {
      TrialResult r = compare_values(drev->primal, "Drev's primal", over->primal,
                                     "the overloading primal", CheckKind::exact_value, context);
      if (r.kind == TrialResult::Kind::pass)
        r = compare_values(drev->gradient, "R{e}", over->gradient, "R-overloading",
                           CheckKind::derivative, context);
      return on(r, d.m);
    }
    if (const auto e = tape_difference(*drev, *over)) {
      TrialResult r = TrialResult::fail(*e);
      add_tape(r, "Drev", *drev);
      add_tape(r, "overloading", *over);
      return on(r, d.m);
    }
    if (!same_bits(drev->primal, over->primal))
      return on(TrialResult::fail("the primal results differ: " + print_value(drev->primal, d.m.t) +
                                  " by Drev, " + print_value(over->primal, d.m.t) +
                                  " by overloading"),
                d.m);
    if (!same_bits(drev->gradient, over->gradient))
      return on(
          TrialResult::fail("the gradients differ bitwise: " + print_value(drev->gradient, d.m.s) +
                            " by Drev, " + print_value(over->gradient, d.m.s) + " by overloading"),
          d.m);
    return on(TrialResult::pass(), d.m);
  });
}

props::PropertyDef overloading_tape_agrees() {
  return props::PropertyDef{
      "delta-reverse",
      "delta-reverse/overloading-tape-agrees",
      "oracle-agreement",
      "the overloading interpreter (the source run on dual numbers with a growable tape) makes "
      "Drev{e}'s tape, result and gradient, bit for bit (with a rule file: the same result and "
      "gradient within tolerance)",
      "spec §4.2, §6 P14; seed 001 §8 L629-641, Fig. 9 L438-487",
      overloading_agrees};
}

} // namespace adsem::delta_reverse
