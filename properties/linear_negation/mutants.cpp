#include "properties/linear_negation/mutants.hpp"

#include "semantics/linear_negation/mutants.hpp"

namespace adsem::linear_negation {

std::vector<props::MutantDef> mutants() {
  const auto def = [](std::string name, std::string bug_class, std::string summary,
                      std::vector<std::string> killers) {
    return props::MutantDef{"linear-negation", std::move(name), std::move(bug_class),
                            std::move(summary), std::move(killers)};
  };
  return {
      def(mutant::linear_factoring_disabled, "lost-sharing",
          "rule (17) x t + x u → x (t + u) removed (Table 2c, L364-367): values stay right, but "
          "each backpropagator is copied to every call site and re-run (spec §9 P1)",
          {"linear-negation/complexity"}),
      def(mutant::d_mul_drops_product_term, "dropped-chain-rule-term",
          "D(t·u) = ⟨x·y, λa. x'(y·a)⟩…: the product rule loses y'(x·a) (Table 3b, L460; Lemma 19)",
          {"linear-negation/gradient-soundness", "linear-negation/d-semantics"}),
      def(mutant::equivalence_duplicates_substitution, "lost-sharing",
          "rule (8) reads ⟨t,u⟩α as ⟨tα, uα⟩ (≡ (21)/(22) misapplied as a distribution): the "
          "substitution stack α is duplicated into both components, so a shared subgraph is "
          "computed twice per level",
          {"linear-negation/complexity"}),
      def(mutant::gradient_read_from_wrong_component, "wrong-component",
          "read-back A credits xj' gj to coordinate j+1 (mod n) instead of j (Cor. 16, L562-566)",
          {"linear-negation/gradient-soundness"}),
      def(mutant::paper_literal_prop1_seed, "paper-literal",
          "Prop. 1 as printed (L140-142): every input seeded x_i := ⟨r_j, 1⟩, so forward mode "
          "computes a directional derivative along (1, …, 1), not ∂_j (spec erratum 17)",
          {"linear-negation/forward-soundness"}),
      def(mutant::paper_literal_prop17_recurrence, "paper-literal",
          "Prop. 17 as printed (L612-618): g_ρ^{i+1} = σ'(u_{i+1} + r·g_ρ^i) used as the BPTT "
          "oracle (spec erratum 4 / P24: it should be u_i)",
          {"linear-negation/rnn-recurrence"}),
  };
}

} // namespace adsem::linear_negation
