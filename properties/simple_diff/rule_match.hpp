#pragma once
// A simple-diff user rule joined to the semantics (user_rules.hpp): its elaborated left-hand side
// matched against a term that ⇒ or ⇝ visits, or against the goal of Fig. 6's W.R_V(x:T. C), and
// its right-hand side instantiated with the match.
//
// Matching is first-order. A metavariable binds a subterm of its declared type (the type read
// from the term's annotations, the binders around it, ρ and φ; for Fig. 6, where the trace's
// variables are bound outside the redex, a variable's type is not checked); the same
// metavariable twice binds alpha-equivalent subterms; binders match up to renaming; a subterm
// bound to M mentions none of the left's binders around it that M may not see (`x # M`, and
// binders not around every occurrence of M). The right-hand side's binders are fresh, so it
// captures nothing; a subterm mentioning a binder of the left is renamed to the right's name.
#include <map>
#include <optional>
#include <string>

#include "properties/simple_diff/rule_pattern.hpp"
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff {

struct RuleMatch {
  std::map<std::string, Term> sigma;          // metavariable -> the subterm it binds
  std::map<std::string, std::string> binders; // the left's binder -> the term's name for it
};

// `lhs` against a term that ⇒ or ⇝ visits in the machine's ρ and the function environment φ.
std::optional<RuleMatch> match_term(const Pattern& p, const Term& lhs, const Term& term,
                                    const Machine& m, const FunEnv& phi);
// `lhs` = W.rd[V](x:T. C') against the goal W.R_V(x:T. C) of a Fig. 6 clause.
std::optional<RuleMatch> match_goal(const Pattern& p, const Term& lhs, const DiffGoal& goal,
                                    const Term& c);
// σ(RHS). With a goal (a Fig. 6 clause), `W'.rd[V'](y:S. M)` on the right is the
// differentiation W'.R_V'(y:S. σ(M)) itself.
Term instantiate_rhs(Machine& m, const Pattern& p, const RuleMatch& match, const Term& rhs,
                     const std::optional<DiffGoal>& goal);

} // namespace adsem::simple_diff
