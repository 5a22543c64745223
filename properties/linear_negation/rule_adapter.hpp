#pragma once
// User rewrite rules for linear-negation (docs/rules/linear-negation.md). A rule
// `name: LHS --> RHS` is two terms of the target surface syntax (spec §2.7, target mode: `\z:R.`
// is a linear binder, `\x:!R.` an exponential one) in which the declared metavariables
// (`meta M : R`, `meta F : R -o R`, ...) are free exponential variables of their types.
//
// Checks (each a property on the campaign engine). An instance is C[σ(LHS)]: C a random program
// x1..xn : R ⊢ C : R of the source generator (gen_src, spec §10.1) whose leaves may use the hole
// h : T (under let, λ, pair patterns, shared and higher-order functions, ...), σ random terms of
// the metavariables' types over the variables in scope at the hole and the exponential binders
// of the left around them; the rewritten program is C[σ(RHS)], at a random point r.
//   type-preservation        C[σ(RHS)] type-checks (Table 1, linearity included) at the type of
//                            C[σ(LHS)]: subject reduction of the extended reduction (Prop. 2,
//                            L407, proof L712-719)
//   denotation-preservation  ⟦C[σ(RHS)]⟧(r) = ⟦C[σ(LHS)]⟧(r) where the left is certified
//                            defined (Prop. 8, L428: every step preserves the denotation)
//   extended-adequacy        S_bp run on C[σ(RHS)][x := r] (one step of the user's rule, then
//                            the calculus's own βℓ-rules of Table 2) ends in the numeral
//                            ⟦C[σ(LHS)]⟧(r) (Prop. 2, 5, 6 and Cor. 9, L407-434)
//   extended-ad              (source rules only) Cor. 16's wrapper around D(C[σ(RHS)]),
//                            βℓ-normalised by S_bp and read back, gives the model's gradient of
//                            C[σ(LHS)] at r (Thm 15, Cor. 16, L466, L562-566)
// D (Table 3) is defined on Λ(F) only: a rule that mentions R^⊥d or a linear binder is a target
// rule, and its programs are outside D's domain, so it is checked without extended-ad.
#include "properties/core/rule_adapter_kit.hpp"
#include "properties/linear_negation/rule_pattern.hpp"

namespace adsem::linear_negation {

// An instance C[σ(LHS)] of the rule in a random context (as the checks draw it): the program
// x1..xn : R ⊢ C[σ(LHS)] : R (not elaborated) and its random point. Draws with RapidCheck.
struct RuleInstance {
  Term program;
  std::vector<std::string> inputs;
  std::vector<double> point;
};
RuleInstance draw_rule_instance(const Pattern& rule);
// The same instance closed at its point (x_i := r_i): a closed program of type R, elaborated.
Typed draw_closed_instance(const Pattern& rule);

// What differs per calculus (rule_adapter_kit.hpp).
struct RuleTraits {
  using Pattern = linear_negation::Pattern;
  static Pattern compile(const adsem::rules::RuleDecl& rule) { return compile_pattern(rule); }
  static std::vector<adsem::rules::RuleCheckDef> checks();
  // The AD check only for source rules (D is defined on Λ(F) alone).
  static std::vector<adsem::rules::RuleCheckDef> checks_for(const Pattern& p);
  static props::TrialResult trial(const Pattern& p, const std::string& check,
                                  const props::PropertyContext& context);
  static std::string type_text(const Type& t);
  // `--rules` (user_rules.hpp): the file's rules joined to the rule book.
  static std::shared_ptr<const props::CompiledRuleFile>
  compile_file(const adsem::rules::RuleFile& file);
};
using RuleAdapter = adsem::rules::PatternAdapter<RuleTraits>;

} // namespace adsem::linear_negation
