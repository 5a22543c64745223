// The mutants of perturbative: each one patch of the paper's rule book (or of the derivative macro
// or the model), drawn from a real AD bug class, beside the properties expected to kill it.
#include "properties/perturbative/mutants.hpp"

#include "semantics/perturbative/templates.hpp"
#include "semantics/perturbative/transform.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::perturbative {

namespace {

// Replaces the result of the Tx clause `name` by `result`, which receives the paper's.
template <class R, class F> RulesPatch replace_result(std::string name, F result) {
  RulesPatch p;
  p.replace<R>(std::move(name), [result](Rule<R> r) {
    r.result = [result, paper = r.result](Engine& engine, const typename R::Redex& redex,
                                          const RuleInfo& self) {
      return result(paper, engine, redex, self);
    };
    return r;
  });
  return p;
}

using Paper = Rule<Tx>::Result;

// T_x y = ⟨y, y⟩: every variable treated as perturbed (perturbation confusion, L48-55).
RulesPatch tx_perturbs_free_variables() {
  return replace_result<Tx>("Tx-y", [](const Paper&, Engine&, const Tx::Redex& r, const RuleInfo&) {
    const Bag v = var(r.node.name, r.node.type);
    return pair(v, v);
  });
}

// ⬦ without π1((T(π2 M)) N): the chain-rule term dropped (spec §9.14).
RulesPatch diamond_drops_chain_rule() {
  return replace_result<Tx>("Tx-app",
                            [](const Paper&, Engine&, const Tx::Redex& r, const RuleInfo&) {
                              const Bag &m = *r.tx_operand, &n = *r.tx_argument;
                              return pair(app(proj(1, m), proj(2, n)), app(proj(2, m), proj(2, n)));
                            });
}

// T_x (ι2 s) = ⟨0, ι2(π2(T_x s))⟩: the tangent of the second component dropped.
RulesPatch inj2_drops_tangent() {
  return replace_result<Tx>(
      "Tx-inj", [](const Paper& paper, Engine& engine, const Tx::Redex& r, const RuleInfo& self) {
        const Simple& i = r.node;
        if (i.index != 2) return paper(engine, r, self);
        return pair(zero(i.type), inj(2, i.type, proj(2, *r.tx_operand)));
      });
}

// τ_sin uses sin for sin' (a wrong derivative template, δT).
RulesPatch sin_derivative_is_sin() {
  return replace_result<Reduction>("delta-T", [](const Rule<Reduction>::Result& paper,
                                                 Engine& engine, const Reduction::Redex& r,
                                                 const RuleInfo& self) {
    if (r.node.operand->name != "sin") return paper(engine, r, self);
    return parse_template("\\p:T R. (pi1 p * sin (pi2 p), sin (pi2 p))");
  });
}

// T_x x = ⟨π2 x, π1 x⟩: (primal, tangent) read for (tangent, primal) (spec §9.1 orientation).
RulesPatch tangent_primal_swapped() {
  return replace_result<Tx>("Tx-x", [](const Paper&, Engine&, const Tx::Redex& r, const RuleInfo&) {
    const Bag v = var(r.node.name, r.tangent_sigma);
    return pair(proj(2, v), proj(1, v));
  });
}

// (×2) π_k(ι_l s) → s instead of 0, where σ_k = σ_l (so the term stays well typed; otherwise the
// paper's 0).
RulesPatch times2_keeps_operand() {
  return replace_result<Reduction>("times2", [](const Rule<Reduction>::Result& paper,
                                                Engine& engine, const Reduction::Redex& r,
                                                const RuleInfo& self) {
    const SimpleP& s = r.node.operand->operand;
    return same_type(r.node.type, s->type) ? single(s) : paper(engine, r, self);
  });
}

// The derivative macro D(f, v, a) = π1 (T f (v, a)) used with its slots swapped: π1 (T f (a, v)).
Bag d_macro_slots_swapped(const Bag& f, const Bag& tangent, const Bag& point) {
  if (!same_type(tangent.type, point.type)) return derivative(f, tangent, point);
  return proj(1, app(push(f), pair(point, tangent)));
}

Mutant mutant(std::string name, std::string bug, std::string summary,
              std::vector<std::string> killers, RulesPatch patch, Semantics semantics = {}) {
  for (std::string& k : killers)
    k = "perturbative/" + k;
  patch.name = "perturbative/" + name;
  if (!patch.edits.empty()) semantics.rules = patch_paper_rules(patch);
  return Mutant{props::MutantDef{"perturbative", patch.name, std::move(bug), std::move(summary),
                                 std::move(killers)},
                std::move(patch), std::move(semantics)};
}

} // namespace

const std::vector<Mutant>& mutant_catalogue() {
  static const std::vector<Mutant> catalogue = [] {
    std::vector<Mutant> all;
    all.push_back(mutant(
        "tx-perturbs-free-variables", "perturbation-confusion",
        "Fig. 4 clause T_x y = ι2 y replaced by ⟨y, y⟩: every free variable is perturbed, so an "
        "inner derivative sees the outer perturbation (L48-55)",
        {"lemma-5-5", "perturbation-confusion", "tangent-linear"}, tx_perturbs_free_variables()));
    all.push_back(mutant(
        "diamond-drops-chain-rule", "dropped-chain-rule-term",
        "M ⬦ N without π1((T(π2 M)) N) (L217): the derivative of the function at the argument's "
        "tangent is lost (spec §9.14)",
        {"lemma-5-5", "adequacy", "functor-chain-rule", "diamond-semantics"},
        diamond_drops_chain_rule()));
    all.push_back(mutant(
        "inj2-drops-tangent", "dropped-component-tangent",
        "T_x (ι2 s) keeps only the primal: the tangent of a pair's second component is dropped",
        {"lemma-5-5", "adequacy"}, inj2_drops_tangent()));
    all.push_back(mutant("sin-derivative-is-sin", "wrong-derivative-template",
                         "the pushforward template of sin uses sin for sin' (δT, spec §7)",
                         {"adequacy", "ad-vs-finite-differences", "ad-in-enclosure"},
                         sin_derivative_is_sin()));
    all.push_back(mutant(
        "tangent-primal-swapped", "orientation",
        "T_x x = ⟨π2 x, π1 x⟩: the pair read as (primal, tangent), the opposite of the paper's "
        "Tσ = (tangent, primal) (L34, L38, L94; spec §9.1)",
        {"lemma-5-5", "adequacy", "functor-chain-rule"}, tangent_primal_swapped()));
    all.push_back(mutant(
        "times2-keeps-operand", "wrong-projection-rule",
        "(×2) π_k(ι_l s) → s instead of 0 (Fig. 3, L188-189) where σ_k = σ_l: the tangent slot "
        "reads the primal of a pair",
        {"adequacy", "step-soundness"}, times2_keeps_operand()));
    // The property's term builder, not the semantics: D is not a rule.
    Semantics swapped_d;
    swapped_d.derivative = d_macro_slots_swapped;
    all.push_back(mutant(
        "d-macro-slots-swapped", "orientation",
        "the derivative macro D(f, v, a) = π1 (T f (v, a)) built as π1 (T f (a, v)): point and "
        "tangent in each other's slot (spec §2.7, §9.1)",
        {"ad-vs-finite-differences", "ad-in-enclosure", "tangent-linear"}, {}, swapped_d));
    // The model's negative controls (spec §5.3): the rules are the paper's, the model is broken.
    Semantics untagged, no_swap;
    untagged.model = model::PerturbationMode::untagged;
    no_swap.model = model::PerturbationMode::fresh_tag_no_swap;
    all.push_back(mutant(
        "model-untagged", "perturbation-confusion",
        "the MODEL uses one untagged ε for every 𝒯 (spec §5.3 negative control (a)): E3 gives 1 "
        "(L50-54)",
        {"perturbation-confusion", "adequacy"}, {}, untagged));
    all.push_back(mutant(
        "model-fresh-tag-no-swap", "tagged-perturbation-confusion",
        "the MODEL draws fresh tags but does not rename them in function-valued results (spec "
        "§5.3 negative control (b); JFP 2019): M15 gives 0",
        {"perturbation-confusion", "adequacy", "step-soundness"}, {}, no_swap));
    return all;
  }();
  return catalogue;
}

std::vector<props::MutantDef> mutants() {
  std::vector<props::MutantDef> out;
  for (const Mutant& m : mutant_catalogue())
    out.push_back(m.def);
  return out;
}

const Semantics& semantics_for(const std::string& mutant) {
  static const Semantics paper;
  if (mutant.empty()) return paper;
  for (const Mutant& m : mutant_catalogue())
    if (m.def.name == mutant) return m.semantics;
  throw AdsemError(ErrorKind::usage, "unknown mutant '" + mutant + "' for perturbative");
}

} // namespace adsem::perturbative
