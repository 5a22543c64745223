#pragma once
// User rewrite rules for delta-reverse (docs/rules/delta-reverse.md). A rule
// `name: LHS --> RHS` is two terms of the surface syntax (spec §2.2) in which the declared
// metavariables (`meta M : Real`) are free variables of their types (rule_pattern.hpp).
//
// Source rules (sides are source terms): an instance is C[σ(LHS)], C a random main expression
// e : S → Real (generators/delta_reverse, helpers and all) with the hole wherever the generator
// may put a term of the rule's type, under λ, let and case too; σ random well-typed terms over the
// binders visible there; s a random point of S. Checks:
//   type-preservation        C[σ(RHS)] : S → Real (subject reduction of the extended rewriting;
//                            typing App. A.1, L1019-1027)
//   denotation-preservation  ⟦C[σ(RHS)]⟧(s) = ⟦C[σ(LHS)]⟧(s) where the left is defined (App. A.2,
//                            L1029-1049: the semantics is compositional)
//   extended-adequacy        the machine (spec §4.1) runs C[σ(RHS)] s to ⟦C[σ(LHS)]⟧(s)
//   extended-ad              R{C[σ(RHS)]}(s, dt) (Drev, Fig. 9/15, eval map and §7.3 array) is
//                            the model's dtᵀ J⟦C[σ(LHS)]⟧(s) (Thm. 3, L727-735)
// Delta rules (type Delta, the linear layer L489-495): an instance is C[σ(LHS)], C a random Delta
// context placed in a random binding of the tape of R{e} for a random program e; σ assigns
// Delta terms over the ids allocated before that binding and Real terms. Checks:
//   type-preservation        C[σ(RHS)] : Delta (target typing, L429-432)
//   denotation-preservation  the dense meaning ⟦·⟧_D of Fig. 13 (L739-741), reals from the model,
//                            with every id an independent unit vector: the same linear map
//   extended-adequacy        the machine evaluates C[σ(RHS)] to a Delta u and Fig. 10's eval x u
//                            gives x·⟦C[σ(LHS)]⟧_D (Lemma 6, L802-813)
//   extended-ad              the tape of R{e} with C[σ(LHS)] − C[σ(LHS)] added to the binding,
//                            then the first copy rewritten to C[σ(RHS)]: eval (map) and the sweep
//                            (array) give the model's gradient of e (Thm. 3, Thm. 5, L790-792)
// A left side that is undefined at the point, on a branch boundary or out of fuel is a discard
// with the calculus's reasons (undefined-point, the interval certificate's reasons, fuel).
#include "generators/delta_reverse/terms.hpp"
#include "properties/core/rule_adapter_kit.hpp"
#include "properties/delta_reverse/rule_pattern.hpp"

namespace adsem::delta_reverse {

// An instance of a source rule: C[σ(LHS)] and C[σ(RHS)], C a random main expression e : S → Real
// (drawn with `o`, T = Real) with the hole at a random place of the rule's type, σ random terms
// over the binders visible there. check-rule's source instances, and the targeted trials of a
// campaign with `--rules` (support::draw).
struct SourceInstance {
  gen::MainExpression m; // its term still has the hole (a free variable)
  Term before, after;    // C[σ(LHS)], C[σ(RHS)]: closed main expressions
  std::string shown;     // the instance as reports show it, before its point
};
SourceInstance draw_source_instance(const Pattern& p, gen::Options o);

// What differs per calculus (rule_adapter_kit.hpp).
struct RuleTraits {
  using Pattern = delta_reverse::Pattern;
  static Pattern compile(const adsem::rules::RuleDecl& rule) { return compile_pattern(rule); }
  static std::vector<adsem::rules::RuleCheckDef> checks();
  // A source rule's trial or a Delta rule's (Pattern::sort).
  static props::TrialResult trial(const Pattern& p, const std::string& check,
                                  const props::PropertyContext& context);
  static std::string type_text(const Type& t);
  // `--rules`: the file as a patch of the rule book (user_rules.hpp).
  static std::shared_ptr<const props::CompiledRuleFile>
  compile_file(const adsem::rules::RuleFile& file);
};
using RuleAdapter = adsem::rules::PatternAdapter<RuleTraits>;

} // namespace adsem::delta_reverse
