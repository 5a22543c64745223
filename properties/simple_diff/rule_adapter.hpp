#pragma once
// User rewrite rules for simple-diff (docs/rules.md). A rule `name: LHS --> RHS` is two
// terms of the surface syntax in which the declared metavariables (`meta M : real`) are free
// variables of their types. A metavariable stands for any term of its type whose free variables
// are (a) the variables in scope where the instance sits and (b) the variables the left-hand
// side binds around every occurrence of it, less those a side condition `x # M` excludes.
//
// Checks (each a property on the campaign engine): an instance is C[σ(LHS)], with C a random
// real-valued context (generated, so the instance may sit under let, rd, if, ...), σ random
// well-typed terms for the metavariables, at a random point; the rewritten program is C[σ(RHS)].
//   type-preservation        C[σ(RHS)] type-checks with the type of C[σ(LHS)] (the rule keeps
//                            context polymorphism, seed 003 Lemma 3.2, lines 310-314)
//   denotation-preservation  [[C[σ(LHS)]]] = [[C[σ(RHS)]]] where the left is defined
//                            (compositionality, Lemma 5.2, lines 815-821, needs [[σ(LHS)]] =
//                            [[σ(RHS)]])
//   extended-adequacy        the operational semantics run on the rewritten program (the
//                            calculus's evaluation after one step of the user's rule) gives
//                            [[C[σ(LHS)]]], a value of the same type (subject reduction, Prop.
//                            3.6, lines 463-469; adequacy, Thm 6.2(1), lines 877-883)
//   extended-ad              the calculus's own rd on x. C[σ(RHS)] gives the model's gradient
//                            of x. C[σ(LHS)] (AD correctness, Thm 6.1 and Cor. 6.3, lines 847-908)
// A left side that is undefined (⊥) at the point is a discard: a rewrite may make a program more
// defined (a refinement), never less.
#include "properties/core/rule_adapter_kit.hpp"
#include "properties/simple_diff/rule_pattern.hpp"

namespace adsem::simple_diff {

// What differs per calculus (rule_adapter_kit.hpp).
struct RuleTraits {
  using Pattern = simple_diff::Pattern;
  static Pattern compile(const adsem::rules::RuleDecl& rule) { return compile_pattern(rule); }
  static std::vector<adsem::rules::RuleCheckDef> checks();
  static props::TrialResult trial(const Pattern& p, const std::string& check,
                                  const props::PropertyContext& context);
  static std::string type_text(const Type& t);
  // The file joined to the semantics (`--rules`, user_rules.hpp).
  static std::shared_ptr<const props::CompiledRuleFile>
  compile_file(const adsem::rules::RuleFile& file);
};
using RuleAdapter = adsem::rules::PatternAdapter<RuleTraits>;

} // namespace adsem::simple_diff
