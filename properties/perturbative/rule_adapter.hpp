#pragma once
// User rewrite rules for perturbative (docs/rules/perturbative.md). A rule
// `name: LHS --> RHS` is two terms of the surface syntax (spec §2.7) in which the declared
// metavariables (`meta M : R`) are free variables of their types; both sides are elaborated
// through the linearity sugar (seed 004 L165-185), so they are bags. A metavariable stands for any
// term of its type whose free variables are (a) the variables in scope where the instance sits in
// the context and (b) the variables the left-hand side binds around every occurrence of it, less
// those a side condition `x # M` excludes.
//
// Checks (each a property on the campaign engine). An instance is C[σ(LHS)]: C a random
// real-valued context with one free variable a : R or a : R * R (a generated term, so the hole
// may sit under λ, under T, inside the nested-derivative templates, in arguments), σ random
// well-typed terms for the metavariables, a point on the grid of the perturbative campaigns; the
// rewritten program is C[σ(RHS)] (one rewrite step at that position, re-inserted with the sugar
// as the paper's contextual closure does, spec §4.1).
//   type-preservation        C[σ(RHS)] type-checks (Fig. 1) at the type of C[σ(LHS)]: the rule
//                            keeps subject reduction (seed 004 Lemma 4.1(d), L275)
//   denotation-preservation  ⟦C[σ(LHS)]⟧ = ⟦C[σ(RHS)]⟧ where the left is defined: the rule is
//                            sound in the model, as Thm 5.6 (L339-346) shows for β, ×, T
//   extended-adequacy        the reference normaliser (spec §4.7) on C[σ(RHS)] at the point (the
//                            calculus's reduction after one step of the user's rule) gives a
//                            numeral equal to ⟦C[σ(LHS)]⟧ (spec SEM-8; §5 L281-293)
//   extended-ad              the calculus's own AD, D(λa. C[σ(RHS)], e, a0) = π1 (T … (e, a0))
//                            normalised, equals the model's derivative of λa. C[σ(LHS)] along e
//                            (Lemma 5.5 L316-338 with Thm 5.6; spec AD-8)
// A left side undefined at the point is a counted discard (`undefined-point`); a right side less
// defined than the left is a failure.
#include "properties/core/rule_adapter_kit.hpp"
#include "properties/perturbative/rule_pattern.hpp"

namespace adsem::perturbative {

// An instance of a rule as the checks draw it, for a property's input under `--rules`
// (user_rules.hpp): the function λa. C[σ(LHS)] : domain → R (domain R or R × R) and a point.
struct Targeted {
  Term function;
  Term point;
};
Targeted draw_targeted_instance(const Pattern& p, const Type& domain);

// What differs per calculus (rule_adapter_kit.hpp).
struct RuleTraits {
  using Pattern = perturbative::Pattern;
  static Pattern compile(const adsem::rules::RuleDecl& rule) { return compile_pattern(rule); }
  static std::vector<adsem::rules::RuleCheckDef> checks();
  static props::TrialResult trial(const Pattern& p, const std::string& check,
                                  const props::PropertyContext& context);
  static std::string type_text(const Type& t);
  // The file joined to the semantics (`--rules`; user_rules.hpp).
  static std::shared_ptr<const props::CompiledRuleFile>
  compile_file(const adsem::rules::RuleFile& file);
};
using RuleAdapter = adsem::rules::PatternAdapter<RuleTraits>;

} // namespace adsem::perturbative
