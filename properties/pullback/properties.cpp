#include "properties/pullback/properties.hpp"

#include "properties/pullback/bodies.hpp"
#include "properties/pullback/enumeration.hpp"

namespace adsem::pullback {

std::vector<props::PropertyDef> properties() {
  const auto def = [](std::string name, std::string kind, std::string summary, std::string citation,
                      auto body, int size = 50) {
    return props::PropertyDef{"pullback",
                              "pullback/" + std::move(name),
                              std::move(kind),
                              std::move(summary),
                              std::move(citation),
                              body,
                              size};
  };
  using namespace bodies;
  std::vector<props::PropertyDef> all = {
      def("round-trip", "round-trip", "print then parse gives an α-equal term (spec §2.7)",
          "spec §2.7 [ID-4]", round_trip),
      def("subject-reduction", "subject-reduction",
          "every step, premise steps included, preserves the type (lin⁺ for reducts)",
          "seed 000, Cor. 4.7, lines 494-496; spec §6 P3, ID-3", subject_reduction),
      def("strong-normalisation", "termination",
          "normalisation ends within 10⁵ steps (premises included)",
          "seed 000, Cor. 5.2, lines 540-542 (via Lemma 5.1(1)); spec §6 P4", strong_normalisation),
      def("unique-decomposition", "determinism",
          "each term on a run has at most one decomposition C[r], the one step contracts",
          "seed 000, Lemma 3.8, lines 367-369; Lemma B.1 line 760; spec §6 P5",
          unique_decomposition),
      def("anf-shape", "a-normal-form",
          "ANF(P) is a final let series of elementary terms and ANF is idempotent",
          "seed 000, §3.2 lines 207-219, Lemma B.1 line 760; spec §6 P6", anf_shape),
      def("soundness-of-steps", "soundness",
          "every reduction step (premises included) preserves the denotation, by probing",
          "seed 000, Thm. 4.6(2), lines 473-476, proof lines 928-1160; spec §6 P1",
          soundness_of_steps),
      def("soundness-of-anf", "soundness",
          "A-normalisation (compact and literal) preserves the denotation and the gradient",
          "seed 000, Thm. 4.6(1), line 475; spec §6 P2, ID-9", soundness_of_anf),
      def("linearity", "linearity", "x ∈ lin(S) (and lin⁺ of ANF(S)) makes S linear in x",
          "seed 000, Lemma 4.4(1), lines 464-466, proof 879-912; spec §6 P7", linearity),
      def("dual-linearity", "linearity", "terms of dual type denote linear functionals",
          "seed 000, Lemma 4.4(2), line 467; spec §6 P8", dual_linearity),
      def("substitution", "soundness",
          "⟦S[P/x]⟧ = ⟦S⟧ ∘ ⟨Id, ⟦P⟧⟩, into bodies, pullback arguments and pullback bodies",
          "seed 000, Lemma 4.5, line 469, proof 914-926; spec §6 P9", substitution),
      def("sum-law", "soundness", "S[P₁+P₂/x] ≡ S[P₁/x] + S[P₂/x] and S[0/x] ≡ 0 for linear x",
          "seed 000, §3.1.3 line 173 (≡); spec §6 P21, ID-6", sum_law),
      def("premise-jacobian", "soundness",
          "every Jacobian body a JAC premise extracts is the model's derivative (JVP)",
          "seed 000, proofs of rules 16-20, lines 1060-1122; Remark 3.5 line 275; spec §6 P12",
          premise_jacobian),
      def("adequacy", "adequacy",
          "a closed ground term that reduces to a literal denotes that literal",
          "spec §6 P18 (from Thm. 4.6 and Lemma 3.8)", adequacy),
      def("translation", "soundness",
          "the translation into the differential λ-calculus preserves the denotation",
          "seed 000, Lemma 5.1(2), lines 535-538, proof 1162-1198, App. D 833-844; spec §6 P13",
          translation),
      def("dot-product-test", "ad-correctness",
          "each transpose step (λv.B)*·c* → c'* satisfies ⟨c', u⟩ = ⟨c, B u⟩",
          "spec §6 P20, §5.5 (rules 5/5⁺, seed 000 lines 363, 385-387)", dot_product),
      def("reverse-mode-first-order", "ad-correctness",
          "the gradient query reduces to cᵀJ, J the model's exact Jacobian",
          "seed 000, Cor. 4.8(1), lines 504-506; spec §6 P10", reverse_mode_first_order),
      def("reverse-mode-vs-finite-differences", "ad-correctness",
          "the gradient query agrees with central finite differences in a certified box",
          "seed 000, Cor. 4.8(1) and Lemma E.2 lines 852-871; spec §6 P10, §5.4 M3",
          reverse_mode_vs_fd),
      def("reverse-mode-vs-intervals", "ad-correctness",
          "the gradient lies in the interval enclosure of cᵀJ over a box around the point",
          "seed 000, Cor. 4.8(1); spec §6 P10; design.md three oracles", reverse_mode_vs_intervals),
      def("reverse-mode-higher-order", "ad-correctness",
          "with a free 1-form the normal form is (λv.P')*·(ω W), P' the JVP and W the output; "
          "functional inputs give the model's pullback on probes",
          "seed 000, Cor. 4.8(2), lines 507, 564; Ex. 3.2 lines 195-197; spec §6 P11",
          reverse_mode_higher_order),
      def("tape-agreement", "ad-correctness",
          "straight-line bodies: same gradient and primitive count as a classical tape; the "
          "pullback-sparse extension gives the same gradient",
          "seed 000, §2.1 lines 61-125, Ex. 3.7/3.9; spec §6 P22", tape_agreement),
      def("cost-reverse-mode", "cost",
          "each primitive evaluated once, one transpose per stage, no rule 4 or 6",
          "seed 000, Ex. 3.7 (⋆) lines 349-351, §5.1 line 519, Remark 2.1 line 109; spec §6 P19",
          cost_reverse_mode),
      def("cost-linear-steps", "cost",
          "steps per stage of ANF(P) bounded (factor 2) over chains of 4..32 primitives",
          "seed 000, §5.1 line 519 (reduction simulates reverse mode); spec §6 P19",
          cost_linear_steps),
      def("separation", "model",
          "the probe family of §5.5 separates distinct values: always by the basis probes of "
          "Euclidean types and covectors, on function spaces within its sampled arguments",
          "seed 000, Hahn–Banach separation lines 442-446, Prop. E.3 lines 873-877; spec §6 P17, "
          "§5.5",
          separation),
      def("jacobian-bodies", "soundness",
          "the Jacobian body S of every row 10-19 that fires is ∂E/∂y·v at V: ⟦S⟧ = "
          "⟦(∂E_t/∂y·v)[V/y]⟧ by Ehrhard–Regnier differential substitution in 𝓛_D",
          "seed 000, Remark 3.5 line 275, Fig. 3 lines 242-247, App. D lines 808-814; spec §6 "
          "P23, §4.11",
          jacobian_bodies),
      def("simulation", "soundness",
          "every step P → P' (premise steps included) preserves the denotation of the "
          "translation into the differential λ-calculus: ⟦P_t⟧ = ⟦P'_t⟧",
          "seed 000, Lemma 5.1(1), lines 535-537, proof line 1166 (weak form: the denotations of "
          "P_t and P'_t agree); spec §6 P14",
          simulation),
  };
  take_part_in_enumeration(all); // bounded-exhaustive checks of one given term
  return all;
}

} // namespace adsem::pullback
