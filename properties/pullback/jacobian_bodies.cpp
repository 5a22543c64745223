// P23 per-rule Jacobian bodies (seed 000 Remark 3.5, L275; spec §6 P23): the S of every row 10-19
// that fires is "substitute a linear occurrence of y by v, then all other y by V", checked
// against Ehrhard–Regnier's differential substitution in the differential λ-calculus: for random
// γ and v, ⟦S⟧⟨γ,v⟩ = ⟦(∂E_t/∂y·v)[V/y]⟧_γ, compared at E's type by probes. Finer than P1
// (soundness-of-steps sees S only through ω's functional at W) and than P12 (premise-jacobian
// sees the normal forms of JAC premises, not each row; rows inside JAC1 of rule 20a never).
#include <algorithm>
#include <map>
#include <random>
#include <string_view>

#include <rapidcheck.h>

#include "generators/pullback/terms.hpp"
#include "properties/pullback/bodies.hpp"
#include "properties/pullback/support.hpp"
#include "properties/pullback/user_rules.hpp"
#include "semantics/pullback/differential_substitution.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback::bodies {

using namespace support;

namespace {

// Rows 10-19 of Fig. 3 (L240-247) whose result is (λv.S)*·(ω W); row 17 rewrites E into a λ
// that row 18 then differentiates (checked there, on the λ).
bool jacobian_row(std::string_view rule) {
  static const std::vector<std::string_view> rows = {"10a", "10b", "11",  "12",  "13a", "13b",
                                                     "13c", "14",  "15",  "16a", "16b", "16c",
                                                     "18",  "19a", "19b", "19c"};
  return std::find(rows.begin(), rows.end(), rule) != rows.end();
}

struct Row {
  std::string rule, y, v;
  Type sigma;
  Term e, value, s;
};

} // namespace

TrialResult jacobian_bodies_of(const Term& t, std::uint64_t seed, const PropertyContext& context) {
  return guarded(t, [&] {
    std::vector<Row> rows;
    std::map<std::string, int> per_rule;
    RunOptions o;
    o.fuel = context.option_int("fuel", 20'000);
    o.rule_counts = false;
    Machine machine(rules_for(context), o);
    machine.observe_rows([&](const RuleInfo& rule, const Pullback::Redex& row, const Term& result) {
      if (!jacobian_row(rule.name) || rows.size() >= 8 || per_rule[rule.name] >= 2) return;
      if (result->kind == Kind::dualmap) {
        rows.push_back(
            {rule.name, row.y, result->name, row.sigma, row.e, row.v_value, result->kids[0]});
      } else if (result->kind == Kind::zero) { // the Jacobian body 0
        rows.push_back(
            {rule.name, row.y, row.v, row.sigma, row.e, row.v_value, zero(type_of(row.e))});
      } else {
        return;
      }
      ++per_rule[rule.name];
    });
    machine.normalise(t);
    if (rows.empty()) return on(TrialResult::discard("no-jacobian-row"), t);
    std::mt19937_64 rng(seed);
    const std::string v_sharp = "v∂"; // '∂' never occurs in source names
    for (const Row& r : rows) {
      const Type tau = type_of(r.e);
      if (mentions_any(tau)) continue;
      const Env<double> env =
          random_env_over({lam(r.y, r.sigma, r.e), r.value, lam(r.v, r.sigma, r.s)}, rng);
      const V point = denote_in(r.value, env);
      const V u = random_model_value(r.sigma, rng);
      const V actual = denote_in(r.s, extend<double>(env, r.v, u));
      const ld::DTerm d = ld::differential_substitution(r.e, r.y, ld::dvar(v_sharp));
      const V expected =
          ld::denote(d, extend<double>(extend<double>(env, r.y, point), v_sharp, u), {});
      TrialResult c = compare(expected, "⟦(∂E/∂y·v)[V/y]⟧ (𝓛_D)", actual,
                              "⟦S⟧⟨v⟩ (row " + r.rule + ")", tau, rng(), context);
      if (c.kind != TrialResult::Kind::pass) {
        if (c.kind == TrialResult::Kind::fail)
          c.reason += " — row " + r.rule + " on λ" + r.y + ". " + print(r.e) + " at " +
                      print(r.value) + ", S = " + print(r.s);
        return on(c, t);
      }
    }
    return on(TrialResult::pass(), t);
  });
}
TrialResult jacobian_bodies(const PropertyContext& context) {
  const int k = *rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 4));
  const Term t = k == 0   ? (*gen::functional_query()).term()
                 : k == 1 ? (*gen::symbolic_query()).term()
                 : k == 2 ? (*gen::open_query()).term()
                          : (*gen::first_order_query(false, 3)).term();
  const std::uint64_t seed = draw_seed();
  return jacobian_bodies_of(t, seed, context);
}

} // namespace adsem::pullback::bodies
