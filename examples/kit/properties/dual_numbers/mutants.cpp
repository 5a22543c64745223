#include "properties/dual_numbers/mutants.hpp"

namespace adsem::dual_numbers {

namespace {

RulesPtr build(const RulesPatch& patch) {
  return std::make_shared<const Rules>(paper_rules()->patched(patch));
}

// D(t * s) = ⟨x * y, x * y'⟩: the product rule's second term dropped (a tangent that follows
// one operand only).
RulesPatch product_rule_drops_a_term() {
  RulesPatch p;
  p.replace<Macro>("D-mul", [](Rule<Macro> r) {
    r.result = [](Machine&, const Macro::Redex& redex, const RuleInfo&) {
      return binary(redex, op(Op::mul, dual_part(1, "p"), dual_part(1, "q")),
                    op(Op::mul, dual_part(1, "p"), dual_part(2, "q")));
    };
    return r;
  });
  return p;
}

// sin(c) → cos(c): the δ-rule of one primitive applies another's table entry.
RulesPatch sin_steps_to_cos() {
  RulesPatch p;
  p.replace<Reduction>("delta-sin", [](Rule<Reduction> r) {
    r.result = [](Machine& m, const Reduction::Redex& redex, const RuleInfo& self) {
      const Rule<Reduction>& cos = m.book().get<Reduction>("delta-cos");
      const Term as_cos = op(Op::cos, redex.node.a);
      return cos.result(m, Reduction::Redex{*as_cos}, self);
    };
    return r;
  });
  return p;
}

} // namespace

const std::vector<Mutant>& mutant_catalogue() {
  static const std::vector<Mutant> catalogue = [] { // immutable once built
    const props::MutantDeclarer<Mutant, RulesPatch, RulesPtr> declare{"dual-numbers", build};
    return std::vector<Mutant>{
        declare("product-rule-drops-a-term", "missing-chain-rule-term",
                "D-mul's tangent is x * y' (the x' * y term of the product rule dropped)",
                {"ad-correctness"}, product_rule_drops_a_term()),
        declare("sin-steps-to-cos", "wrong-primitive",
                "delta-sin steps sin(c) to the numeral of cos(c)", {"adequacy"},
                sin_steps_to_cos()),
    };
  }();
  return catalogue;
}

const Rules& rules_for(const props::PropertyContext& context) {
  if (context.mutant.empty()) return *paper_rules();
  if (const Mutant* m = props::find_mutant(mutant_catalogue(), context.mutant))
    return *m->built.get();
  return *paper_rules(); // another calculus's mutant: this calculus runs the paper's rules
}

} // namespace adsem::dual_numbers
