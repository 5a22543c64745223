#include "properties/perturbative/mutants.hpp"

#include "semantics/perturbative/mutants.hpp"

namespace adsem::perturbative {

std::vector<props::MutantDef> mutants() {
  const auto def = [](std::string name, std::string bug_class, std::string summary,
                      std::vector<std::string> killers) {
    return props::MutantDef{"perturbative", std::move(name), std::move(bug_class),
                            std::move(summary), std::move(killers)};
  };
  return {
      def(mutant::tx_perturbs_free_variables, "perturbation-confusion",
          "Fig. 4 clause T_x y = ι2 y replaced by ⟨y, y⟩: every free variable is perturbed, so an "
          "inner derivative sees the outer perturbation (L48-55)",
          {"perturbative/lemma-5-5", "perturbative/perturbation-confusion",
           "perturbative/tangent-linear"}),
      def(mutant::diamond_drops_chain_rule, "dropped-chain-rule-term",
          "M ⬦ N without π1((T(π2 M)) N) (L217): the derivative of the function at the argument's "
          "tangent is lost (spec §9.14)",
          {"perturbative/lemma-5-5", "perturbative/adequacy", "perturbative/functor-chain-rule",
           "perturbative/diamond-semantics"}),
      def(mutant::inj2_drops_tangent, "dropped-component-tangent",
          "T_x (ι2 s) keeps only the primal: the tangent of a pair's second component is dropped",
          {"perturbative/lemma-5-5", "perturbative/adequacy"}),
      def(mutant::sin_derivative_is_sin, "wrong-derivative-template",
          "the pushforward template of sin uses sin for sin' (δT, spec §7)",
          {"perturbative/adequacy", "perturbative/ad-vs-finite-differences",
           "perturbative/ad-in-enclosure"}),
      def(mutant::tangent_primal_swapped, "orientation",
          "T_x x = ⟨π2 x, π1 x⟩: the pair read as (primal, tangent), the opposite of the paper's "
          "Tσ = (tangent, primal) (L34, L38, L94; spec §9.1)",
          {"perturbative/lemma-5-5", "perturbative/adequacy", "perturbative/functor-chain-rule"}),
      def(mutant::times2_keeps_operand, "wrong-projection-rule",
          "(×2) π_k(ι_l s) → s instead of 0 (Fig. 3, L188-189) where σ_k = σ_l: the tangent slot "
          "reads the primal of a pair",
          {"perturbative/adequacy", "perturbative/step-soundness"}),
      def(mutant::d_macro_slots_swapped, "orientation",
          "the derivative macro D(f, v, a) = π1 (T f (v, a)) built as π1 (T f (a, v)): point and "
          "tangent in each other's slot (spec §2.7, §9.1)",
          {"perturbative/ad-vs-finite-differences", "perturbative/ad-in-enclosure",
           "perturbative/tangent-linear"}),
      def(mutant::model_untagged, "perturbation-confusion",
          "the MODEL uses one untagged ε for every 𝒯 (spec §5.3 negative control (a)): E3 gives 1 "
          "(L50-54)",
          {"perturbative/perturbation-confusion", "perturbative/adequacy"}),
      def(mutant::model_fresh_tag_no_swap, "tagged-perturbation-confusion",
          "the MODEL draws fresh tags but does not rename them in function-valued results (spec "
          "§5.3 negative control (b); JFP 2019): M15 gives 0",
          {"perturbative/perturbation-confusion", "perturbative/adequacy",
           "perturbative/step-soundness"}),
  };
}

} // namespace adsem::perturbative
