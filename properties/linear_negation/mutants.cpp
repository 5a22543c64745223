// The mutants of linear-negation: each drawn from a real AD bug class, beside the properties
// expected to kill it; a mutant of a rule is one patch of the paper's rule book.
#include "properties/linear_negation/mutants.hpp"

#include <algorithm>

#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"

namespace adsem::linear_negation {

namespace {

// Rule (17) x t + x u → x (t + u) removed (Table 2c, L364-367).
RulesPatch linear_factoring_disabled() {
  RulesPatch p;
  p.remove("factor-17");
  return p;
}

// D(t·u) = ⟨x·y, λa. x'(y·a)⟩…: Table 3b's clause for f = mul without its second summand
// y'(x·a) (L460; Lemma 19).
RulesPatch d_mul_drops_product_term() {
  RulesPatch p;
  p.replace<Transform>("D-prim", [](Rule<Transform> r) {
    r.result = [paper = r.result](Differentiator& d, const Transform::Redex& redex,
                                  const RuleInfo& self) {
      const Term out = paper(d, redex, self);
      if (redex.term->name != "mul") return out;
      // out = ⟨x·y, λa. x'(y·a) + y'(x·a)⟩[⟨x, x'⟩ := D(t)][⟨y, y'⟩ := D(u)]
      const Peeled frames = peel(out);
      const Node& core = *frames.core;
      const Node& backprop = *core.right();
      const Term kept = lam(backprop.x, backprop.body()->left());
      return wrap(pair(core.left(), kept), frames.frames);
    };
    return r;
  });
  return p;
}

// Rule (8) reads ⟨t,u⟩α as ⟨tα, uα⟩: the stack α is copied into both components.
RulesPatch equivalence_duplicates_substitution() {
  RulesPatch p;
  p.replace<Reduction>("pair-8", [](Rule<Reduction> r) {
    r.result = [paper = r.result](Reducer& m, const Reduction::Redex& redex, const RuleInfo& self) {
      const Node& t = *redex.term;
      const Peeled p = peel(t.bound());
      if (p.frames.empty()) return paper(m, redex, self);
      const Term a = wrap(p.core->left(), p.frames);
      const Term b = m.renamed_apart(wrap(p.core->right(), p.frames));
      return let(t.y, let(t.x, t.body(), a), b);
    };
    return r;
  });
  return p;
}

Mutant declare(std::string name, std::string bug, std::string summary,
               std::vector<std::string> killers, RulesPatch patch = {}) {
  for (std::string& k : killers)
    k = "linear-negation/" + k;
  patch.name = "linear-negation/" + name;
  RulesPtr rules = patch.edits.empty() ? paper_rules() : patch_paper_rules(patch);
  return Mutant{props::MutantDef{"linear-negation", patch.name, std::move(bug), std::move(summary),
                                 std::move(killers)},
                std::move(patch), std::move(rules)};
}

} // namespace

const std::vector<Mutant>& mutant_catalogue() {
  static const std::vector<Mutant> catalogue = [] {
    std::vector<Mutant> all;
    all.push_back(declare(
        "linear-factoring-disabled", "lost-sharing",
        "rule (17) x t + x u → x (t + u) removed (Table 2c, L364-367): values stay right, but "
        "each backpropagator is copied to every call site and re-run (spec §9 P1)",
        {"complexity"}, linear_factoring_disabled()));
    all.push_back(declare(
        "d-mul-drops-product-term", "dropped-chain-rule-term",
        "D(t·u) = ⟨x·y, λa. x'(y·a)⟩…: the product rule loses y'(x·a) (Table 3b, L460; Lemma 19)",
        {"gradient-soundness", "d-semantics"}, d_mul_drops_product_term()));
    all.push_back(declare("equivalence-duplicates-substitution", "lost-sharing",
                          "rule (8) reads ⟨t,u⟩α as ⟨tα, uα⟩ (≡ (21)/(22) misapplied as a "
                          "distribution): the substitution stack α is duplicated into both "
                          "components, so a shared subgraph is computed twice per level",
                          {"complexity"}, equivalence_duplicates_substitution()));
    all.push_back(declare(
        "gradient-read-from-wrong-component", "wrong-component",
        "read-back A credits xj' gj to coordinate j+1 (mod n) instead of j (Cor. 16, L562-566)",
        {"gradient-soundness"}));
    all.push_back(declare("paper-literal-prop1-seed", "paper-literal",
                          "Prop. 1 as printed (L140-142): every input seeded x_i := ⟨r_j, 1⟩, so "
                          "forward mode computes a directional derivative along (1, …, 1), not ∂_j "
                          "(spec erratum 17)",
                          {"forward-soundness"}));
    all.push_back(declare("paper-literal-prop17-recurrence", "paper-literal",
                          "Prop. 17 as printed (L612-618): g_ρ^{i+1} = σ'(u_{i+1} + r·g_ρ^i) used "
                          "as the BPTT oracle (spec erratum 4 / P24: it should be u_i)",
                          {"rnn-recurrence"}));
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

RulesPtr rules_for(const std::string& mutant) {
  for (const Mutant& m : mutant_catalogue())
    if (m.def.name == mutant) return m.rules;
  return paper_rules();
}

std::vector<double> read_back_under(const std::string& m, std::vector<double> gradient) {
  if (m == mutant::gradient_read_from_wrong_component && !gradient.empty())
    std::rotate(gradient.rbegin(), gradient.rbegin() + 1, gradient.rend());
  return gradient;
}

} // namespace adsem::linear_negation
