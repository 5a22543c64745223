#include "properties/pullback/mutants.hpp"

namespace adsem::pullback {

std::vector<props::MutantDef> mutants() {
  const auto def = [](std::string name, std::string bug_class, std::string summary,
                      std::vector<std::string> killers) {
    return props::MutantDef{"pullback", "pullback/" + std::move(name), std::move(bug_class),
                            std::move(summary), std::move(killers)};
  };
  return {
      def("smooth-pullback-uses-J-not-JT", "transpose",
          "rules 5/5⁺ (the pullback along a smooth primitive, L363, L385) multiply the cotangent "
          "by 𝒥(f)(r) instead of its transpose (square Jacobians, e.g. g of Ex. 3.1)",
          {"pullback/reverse-mode-first-order", "pullback/soundness-of-steps",
           "pullback/dot-product-test"}),
      def("constant-pullback-nonzero", "constant-derivative",
          "rule 9 (y ∉ FV(E), L241, L279) returns the covector of ones instead of 0 (Prop. E.1)",
          {"pullback/soundness-of-steps", "pullback/reverse-mode-first-order"}),
      def("combine-drops-summand", "overwrite-not-accumulate",
          "rule 5⁺ accumulates only the first summand of a sum B₁ + B₂ (e.g. the body v.1 + v.2 "
          "of rule 10b): adjoints are overwritten instead of accumulated",
          {"pullback/soundness-of-steps", "pullback/reverse-mode-first-order"}),
      def("let-series-split-loses-binding", "lost-binding",
          "rule 8 (L238) substitutes w.2 for y and w.1 for x (the stage tuple read in the wrong "
          "order) when y and x have the same type",
          {"pullback/soundness-of-steps", "pullback/reverse-mode-first-order"}),
      def("paper-literal-rule-5-only", "lost-reverse-sweep",
          "the rule set as printed (erratum #8): rule 5 without 5⁺, so rule 6 composes the dual "
          "maps forward by substitution; results stay correct but the cost claim of Ex. 3.7 (⋆) "
          "/ Remark 2.1 fails",
          {"pullback/cost-reverse-mode"}),
  };
}

} // namespace adsem::pullback
