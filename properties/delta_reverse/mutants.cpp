#include "properties/delta_reverse/mutants.hpp"

#include "semantics/delta_reverse/variant.hpp"

namespace adsem::delta_reverse {

std::vector<props::MutantDef> mutants() {
  const auto def = [](std::string name, std::string bug_class, std::string summary,
                      std::vector<std::string> killers) {
    return props::MutantDef{"delta-reverse", std::move(name), std::move(bug_class),
                            std::move(summary), std::move(killers)};
  };
  return {
      def(mutant::eval_overwrites, "overwrite-not-accumulate",
          "eval's Var case (Fig. 10 addDelta, L501-522) and the array sweep write m[id] := x "
          "instead of m[id] += x, so a shared id (fan-out) keeps only its last contribution",
          {"delta-reverse/reverse-correctness", "delta-reverse/eval-correctness"}),
      def(mutant::eval_allocation_order, "wrong-sweep-order",
          "the bindings are processed oldest first instead of newest first (reverse topological "
          "order, L540-571, spec §9.2), so an id's rhs is propagated before its adjoint is "
          "complete",
          {"delta-reverse/reverse-correctness"}),
      def(mutant::case_loses_sum_tag, "lost-sum-tag",
          "the gradient of a sum-typed input is read back with the type's first tag instead of "
          "the actual input's tag (zero_S from the type alone, L358-362; spec §9.8)",
          {"delta-reverse/reverse-correctness", "delta-reverse/shape-preservation"}),
      def(mutant::partials_swapped, "transpose",
          "mulR's partial derivatives swapped in the rule table (d/dx1 = x1, d/dx2 = x2), the "
          "J-versus-Jᵀ class; every translation is built from the table, so F and R agree with "
          "each other and only the model sees it",
          {"delta-reverse/forward-correctness", "delta-reverse/reverse-correctness"}),
      def(mutant::literal_get_order, "paper-literal",
          "Fig. 13's get (L769-771) as printed: the head of the newest-first list is the outermost "
          "Let, so runDelta nests the newest binding outermost and eval visits bindings oldest "
          "first (spec §11 erratum 4)",
          {"delta-reverse/reverse-correctness"}),
      def(mutant::literal_fig14_dy, "paper-literal",
          "Fig. 14's last line as printed (L841): pure ((y1, dy1), ...) returns the DeltaId where "
          "a Delta belongs (spec §11 erratum 3); the rule is ill-typed",
          {"delta-reverse/translation-typing"}),
      def(mutant::literal_outside_rundelta, "paper-literal",
          "Fig. 11/15 (L554, L913) read literally: Drev{e} is run in a runDelta of its own, "
          "separate from the one that runs g s0, so the bindings made before the λ is applied "
          "are lost and their ids reused (spec §11 erratum 6, Ex. 12)",
          {"delta-reverse/reverse-correctness", "delta-reverse/tape-invariants"}),
  };
}

} // namespace adsem::delta_reverse
