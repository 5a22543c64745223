#include "properties/dual_numbers/mutants.hpp"

namespace adsem::dual_numbers {

namespace {

RulesPtr build(const RulesPatch& patch) {
  return std::make_shared<const Rules>(paper_rules()->patched(patch));
}

// The patch that replaces the result of the entry `name` of relation R.
template <class R> RulesPatch replace_result(std::string name, typename Rule<R>::Result result) {
  RulesPatch p;
  p.replace<R>(std::move(name), [result](Rule<R> r) {
    r.result = result;
    return r;
  });
  return p;
}

// D(t * s) = ⟨x * y, x * y'⟩: the product rule's second term dropped (a tangent that follows
// one operand only).
RulesPatch product_rule_drops_a_term() {
  return replace_result<Macro>("D-mul", [](Machine&, const Macro::Redex& r, const RuleInfo&) {
    return binary(r, op(Op::mul, dual_part(1, "p"), dual_part(1, "q")),
                  op(Op::mul, dual_part(1, "p"), dual_part(2, "q")));
  });
}

// sin(c) → cos(c): the δ-rule of one primitive applies another's table entry.
RulesPatch sin_steps_to_cos() {
  return replace_result<Reduction>(
      "delta-sin", [](Machine& m, const Reduction::Redex& r, const RuleInfo& self) {
        const Term as_cos = op(Op::cos, r.node.a);
        return m.book().get<Reduction>("delta-cos").result(m, Reduction::Redex{*as_cos}, self);
      });
}

// D(λx:τ. t) = λx:τ. D t: the binder keeps its type (D on types forgotten under λ). Call by
// value never reads a binder's type, so every value stays right: only typing sees it.
RulesPatch lambda_keeps_binder_type() {
  return replace_result<Macro>("D-lam", [](Machine&, const Macro::Redex& r, const RuleInfo&) {
    return lam(r.node.name, r.node.binder_type, r.da);
  });
}

// π_i ⟨v1, v2⟩ → v_(3-i): the components read the other way round.
RulesPatch projection_swaps_components() {
  return replace_result<Reduction>("pi-pair",
                                   [](Machine&, const Reduction::Redex& r, const RuleInfo&) {
                                     return r.node.index == 1 ? r.node.a->b : r.node.a->a;
                                   });
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
        declare("lambda-keeps-binder-type", "wrong-type-translation",
                "D-lam keeps the binder's type T instead of D T", {"macro-typing"},
                lambda_keeps_binder_type()),
        declare("projection-swaps-components", "wrong-component",
                "pi-pair steps pi_i <v1, v2> to the other component", {"subject-reduction"},
                projection_swaps_components()),
    };
  }();
  return catalogue;
}

const Rules& rules_for(const std::string& mutant) {
  if (const Mutant* m = mutant.empty() ? nullptr : props::find_mutant(mutant_catalogue(), mutant))
    return *m->built.get();
  return *paper_rules();
}

} // namespace adsem::dual_numbers
