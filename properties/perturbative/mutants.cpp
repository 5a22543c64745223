// The mutants of perturbative: each one patch of the paper's rule book (the derivative macro D
// included) or, for the model's negative controls, of the model, drawn from a real AD bug class,
// beside the properties expected to kill it.
#include "properties/perturbative/mutants.hpp"

#include "properties/core/mutant_catalogue.hpp"
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
    const Term v = var(r.node.name, r.node.type);
    return pair(v, v);
  });
}

// ⬦ without π1((T(π2 M)) N): the chain-rule term dropped (spec §9.14).
RulesPatch diamond_drops_chain_rule() {
  return replace_result<Tx>("Tx-app",
                            [](const Paper&, Engine&, const Tx::Redex& r, const RuleInfo&) {
                              const Term &m = *r.tx_operand, &n = *r.tx_argument;
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
    const Term v = var(r.node.name, r.tangent_sigma);
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

// The derivative macro D(f, v, a) = π1 (T f (v, a)) expanded with its slots swapped,
// π1 (T f (a, v)), where the point and the tangent have one type (otherwise the paper's, so the
// term stays well typed).
RulesPatch d_macro_slots_swapped() {
  return replace_result<Macro>("D", [](const Rule<Macro>::Result& paper, Engine& engine,
                                       const Macro::Redex& r, const RuleInfo& self) {
    if (!same_type(r.tangent.type, r.point.type)) return paper(engine, r, self);
    return paper(engine, Macro::Redex{r.f, r.point, r.tangent}, self);
  });
}

// ⬦ without its chain-rule term where the operand is a λ (T_x of a β-redex): a clause written for
// normal inputs, as an AD pass that assumes its input is normalised would be. Innermost
// normalisation pushes T into a normal body only, so only a strategy that contracts T before the
// β-redexes below it builds such a T_x.
RulesPatch tx_app_assumes_normal_operand() {
  return replace_result<Tx>(
      "Tx-app", [](const Paper& paper, Engine& engine, const Tx::Redex& r, const RuleInfo& self) {
        if (r.node.operand->kind != Kind::lam) return paper(engine, r, self);
        const Term &m = *r.tx_operand, &n = *r.tx_argument;
        return pair(app(proj(1, m), proj(2, n)), app(proj(2, m), proj(2, n)));
      });
}

// What a run under a patch of the book uses: the patched book, built once, and the correct model.
Semantics patched_semantics(const RulesPatch& patch) {
  Semantics out;
  out.rules = patch_paper_rules(patch);
  return out;
}

// The model's negative controls (spec §5.3): the paper's book, the model broken.
Semantics untagged_model(const RulesPatch&) {
  Semantics out;
  out.model = model::PerturbationMode::untagged;
  return out;
}
Semantics fresh_tag_no_swap_model(const RulesPatch&) {
  Semantics out;
  out.model = model::PerturbationMode::fresh_tag_no_swap;
  return out;
}

} // namespace

const std::vector<Mutant>& mutant_catalogue() {
  static const std::vector<Mutant> catalogue = [] {
    using Declarer = props::MutantDeclarer<Mutant, RulesPatch, Semantics>;
    const Declarer mutant{"perturbative", patched_semantics};
    const auto model_control = [](Semantics (*model)(const RulesPatch&)) {
      return Declarer{"perturbative", model};
    };
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
    all.push_back(mutant(
        "d-macro-slots-swapped", "orientation",
        "the derivative macro D(f, v, a) = π1 (T f (v, a)) built as π1 (T f (a, v)): point and "
        "tangent in each other's slot (spec §2.7, §9.1)",
        {"ad-vs-finite-differences", "ad-in-enclosure", "tangent-linear"},
        d_macro_slots_swapped()));
    all.push_back(mutant(
        "tx-app-assumes-normal-operand", "assumes-normal-input",
        "the ⬦ of Tx-app (Fig. 4, L211-218) drops its chain-rule term π1((T(π2 M)) N) where M "
        "is a λ, i.e. on a β-redex: correct on the normal bodies innermost normalisation "
        "gives T, wrong where T is pushed into a body before its β-redexes are contracted",
        {"other-strategies-agreement", "lemma-5-5"}, tx_app_assumes_normal_operand()));
    // The model's negative controls (spec §5.3): the rules are the paper's, the model is broken.
    // The model is the oracle, not a rule of the paper, so these stay changes of the model.
    all.push_back(model_control(untagged_model)(
        "model-untagged", "perturbation-confusion",
        "the MODEL uses one untagged ε for every 𝒯 (spec §5.3 negative control (a)): E3 gives 1 "
        "(L50-54)",
        {"perturbation-confusion", "adequacy"}, {}));
    all.push_back(model_control(fresh_tag_no_swap_model)(
        "model-fresh-tag-no-swap", "tagged-perturbation-confusion",
        "the MODEL draws fresh tags but does not rename them in function-valued results (spec "
        "§5.3 negative control (b); JFP 2019): M15 gives 0",
        {"perturbation-confusion", "adequacy", "step-soundness"}, {}));
    return all;
  }();
  return catalogue;
}

std::vector<props::MutantDef> mutants() {
  return props::mutant_defs(mutant_catalogue());
}

const Semantics& semantics_for(const std::string& mutant) {
  static const Semantics paper;
  if (mutant.empty()) return paper;
  if (const Mutant* m = props::find_mutant(mutant_catalogue(), mutant)) return m->semantics.get();
  throw AdsemError(ErrorKind::usage, "unknown mutant '" + mutant + "' for perturbative");
}

Term Semantics::derivative(const Term& f, const Term& tangent, const Term& point,
                           RuleCounter* counter) const {
  Engine engine(*rules);
  Term out = perturbative::derivative(engine, f, tangent, point);
  if (counter) engine.add_firings(*counter);
  return out;
}

} // namespace adsem::perturbative
