#pragma once
// User rewrite rules for pullback (docs/rules/pullback.md). A rule `name: LHS --> RHS`
// is two terms of pullback's ASCII syntax (spec §2.7) in which the declared metavariables
// (`meta M : R`) are free variables of their types. A metavariable stands for a term of its type
// over (a) the variables in scope where the instance sits and (b) the variables the left-hand side
// binds around every occurrence of it, less those a side condition `x # M` excludes; inside the
// body of a dual map (λx.S)* it stands for a term linear in x (rule (dual), seed 000 Fig. 2).
//
// Checks (each a property on the campaign engine). An instance is C[σ(LHS)] with C a random context
// (rule_instance.hpp) with one free variable a0, σ random terms for the metavariables, a point V
// for a0; the rewritten program is C[σ(RHS)].
//   type-preservation        C[σ(RHS)] type-checks (lin⁺, as reducts) with the type of C[σ(LHS)]
//                            (subject reduction, seed 000 Cor. 4.7, lines 494-496)
//   denotation-preservation  ⟦C[σ(RHS)]⟧ = ⟦C[σ(LHS)]⟧ at V where the left is defined
//                            (Thm 4.6, lines 473-476: every step preserves ⟦·⟧; the model is
//                            compositional, §4.2 lines 448-458)
//   extended-adequacy        the calculus's reduction (the rule as one step, then the paper's
//                            rules) normalises C[σ(RHS)][V/a0] to a normal form that types (lin⁺)
//                            and denotes ⟦C[σ(LHS)]⟧ (Thm 4.6, Cor. 4.7; spec §6 P1, P3, P18)
//   extended-ad              the gradient query ((Ω λa0.C[σ(RHS)])·ω) V reduced by the calculus
//                            is the model's pullback of a0 ↦ ⟦C[σ(LHS)]⟧ along ω (Cor. 4.8,
//                            lines 504-509; ω = Ω c at Euclidean type, a free ω otherwise)
// A left side undefined at V (a partial primitive outside its domain) is a discard
// "undefined-point"; a rewrite may make a program more defined, never less.
#include "properties/core/rule_adapter_kit.hpp"
#include "properties/pullback/rule_pattern.hpp"

namespace adsem::pullback {

// What differs per calculus (rule_adapter_kit.hpp).
struct RuleTraits {
  using Pattern = pullback::Pattern;
  // compile_pattern, and the types the instance generator can place or generate.
  static Pattern compile(const adsem::rules::RuleDecl& rule);
  static std::vector<adsem::rules::RuleCheckDef> checks();
  static props::TrialResult trial(const Pattern& p, const std::string& check,
                                  const props::PropertyContext& context);
  static std::string type_text(const Type& t);
  // `--rules` (user_rules.hpp): the file's rules joined to the rule book.
  static std::shared_ptr<const props::CompiledRuleFile>
  compile_file(const adsem::rules::RuleFile& file);
};
using RuleAdapter = adsem::rules::PatternAdapter<RuleTraits>;

} // namespace adsem::pullback
