// P14 simulation, weak form (seed 000 Lemma 5.1(1), L535-537, proof L1166; spec §6 P14):
// if P → P' then P_t and P'_t reduce to a common s in 𝓛_D, so ⟦P_t⟧ = ⟦P'_t⟧, both read in
// 𝓛_D (ld::denote). soundness-of-steps compares ⟦P⟧ and ⟦P'⟧ in the direct model and translation
// ⟦P⟧ and ⟦P_t⟧ on generated terms only; here every reduct is translated.
#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/pullback/bodies.hpp"
#include "properties/pullback/support.hpp"
#include "properties/pullback/user_rules.hpp"
#include "semantics/pullback/strategy.hpp"
#include "semantics/pullback/translation.hpp"

namespace adsem::pullback::bodies {

using namespace support;

TrialResult simulation_of(const Term& t, std::uint64_t seed, const PropertyContext& context) {
  return guarded(t, [&] {
    struct Seen {
      Term before, after;
      std::string rule;
      bool premise;
    };
    std::vector<Seen> seen;
    int premises = 0;
    // The run's top-level steps are kept (up to a bound) and 8 spread over them checked, so that
    // the reverse sweep at the end (rules 5/5⁺, 1-3) is checked as often as the split at the start.
    constexpr std::size_t kept_steps = 256, checked_steps = 5;
    constexpr int observed_premise_steps = 3;
    Machine m(rules_for(context), run_options(context));
    m.observe(
        [&](const Term& before, const Step& s, bool premise) {
          if (premise && ++premises > observed_premise_steps) return;
          if (seen.size() < kept_steps) seen.push_back({before, s.result, s.rule, premise});
        },
        [&] { return seen.size() < kept_steps; },
        [&] { return premises < observed_premise_steps && seen.size() < kept_steps; });
    m.normalise(t);
    if (seen.empty()) return on(TrialResult::discard("normal-form-already"), t);
    if (seen.size() > checked_steps) {
      std::vector<Seen> spread;
      for (std::size_t i = 0; i < checked_steps; ++i)
        spread.push_back(seen[i * (seen.size() - 1) / (checked_steps - 1)]);
      seen = std::move(spread);
    }
    std::mt19937_64 rng(seed);
    // A step's result is the next step's term (one node): translated once.
    Term translated;
    ld::DTerm translation;
    const auto translate = [&](const Term& p) {
      if (p != translated) {
        translated = p;
        translation = ld::translate(p);
      }
      return translation;
    };
    for (const Seen& s : seen) {
      const Type ty = type_of(s.before);
      if (mentions_any(ty)) continue;
      auto free = free_var_types(s.before);
      for (const auto& kv : free_var_types(s.after))
        free.insert(kv);
      const Env<double> env = random_env(free, rng);
      const V before = ld::denote(translate(s.before), env, {});
      TrialResult r = compare(before, "⟦P_t⟧", ld::denote(translate(s.after), env, {}),
                              "⟦P'_t⟧ (after " + s.rule + ")", ty, rng(), context);
      if (r.kind != TrialResult::Kind::pass) {
        if (r.kind == TrialResult::Kind::fail) {
          r.reason = fmt::format("{}step {}: {}", s.premise ? "premise " : "", s.rule, r.reason);
          r.trace = {s.rule};
        }
        return on(r, t);
      }
    }
    return on(TrialResult::pass(), t);
  });
}
TrialResult simulation(const PropertyContext& context) {
  const Term t = every_template_term();
  const std::uint64_t seed = draw_seed();
  return simulation_of(t, seed, context);
}

} // namespace adsem::pullback::bodies
