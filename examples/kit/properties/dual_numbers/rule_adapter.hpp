#pragma once
// User rewrite rules for dual-numbers (`adsem-kit check-rule dual-numbers FILE`, docs/kit.md
// "Rules"). A rule `name: LHS --> RHS` is two terms of the calculus's syntax in which the
// declared metavariables (`meta M : real`, `meta F : (real -> real)`) are free variables of
// their types. An instance is C[σ(LHS)]: C a random program x : real ⊢ C : real of the term
// generator with the hole wherever it put a variable of the rule's type, σ random terms of the
// metavariables' types over the variables in scope at the hole and the λ-binders of the left
// around them; the rewritten program is C[σ(RHS)], at a point a on the campaigns' grid.
//   type-preservation        C[σ(RHS)] type-checks at the type of C[σ(LHS)] (subject reduction
//                            of the reduction extended by the rule)
//   denotation-preservation  ⟦C[σ(RHS)]⟧(a) = ⟦C[σ(LHS)]⟧(a) in the model
//   extended-adequacy        call-by-value reduction of C[σ(RHS)][a/x] (one step of the user's
//                            rule, then the paper's) ends in the numeral ⟦C[σ(LHS)]⟧(a)
//   extended-ad              (λx. D C[σ(RHS)]) <a, 1> reduces to the model's value and exact
//                            derivative of C[σ(LHS)] at a (the correctness theorem of D)
#include "properties/core/rule_adapter_kit.hpp"
#include "properties/dual_numbers/rule_pattern.hpp"

namespace adsem::dual_numbers {

// An instance C[σ(LHS)] of the rule as the checks draw it (RapidCheck draws): the program over
// its one free variable x : real and its point.
struct RuleInstance {
  Term program;
  std::string variable;
  double point = 0;
};
RuleInstance draw_rule_instance(const Pattern& rule);

// What differs per calculus (rule_adapter_kit.hpp).
struct RuleTraits {
  using Pattern = dual_numbers::Pattern;
  static Pattern compile(const adsem::rules::RuleDecl& rule) { return compile_pattern(rule); }
  static std::vector<adsem::rules::RuleCheckDef> checks();
  static props::TrialResult trial(const Pattern& p, const std::string& check,
                                  const props::PropertyContext& context);
  static std::string type_text(const Type& t) { return print_type(t); }
  // `--rules` (user_rules.hpp): the file's rules joined to the rule book.
  static std::shared_ptr<const props::CompiledRuleFile>
  compile_file(const adsem::rules::RuleFile& file);
};
using RuleAdapter = adsem::rules::PatternAdapter<RuleTraits>;

} // namespace adsem::dual_numbers
