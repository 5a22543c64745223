#pragma once
// Matching a user rule's left-hand side against a term of the reduction, and building its
// right-hand side from the match (`--rules`, docs/rules/linear-negation.md "Joining the
// semantics"). First-order matching of the elaborated pattern (rule_pattern.hpp):
//  - a metavariable binds the subterm at its place; a second occurrence must be α-equivalent;
//  - binders match up to α-renaming (the same kind, linear or exponential, and the same type where
//    both carry one); a pattern binder always names the same term binder within one match;
//  - a metavariable's subterm may mention the term binders of the match only where the pattern's
//    exponential binders around it allow (less `x # M`), and never a binder of the match out of
//    its scope there (so the right-hand side captures nothing by accident);
//  - types: the redex carries no types on its nodes, so a metavariable's subterm is checked by its
//    shape only (a numeral, primitive, pair or abstraction core, or a sum of them, cannot stand
//    for a metavariable of another type former; a variable or an application is not checked);
//    linearity of the subterm's free variables is not checked.
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "properties/linear_negation/rule_pattern.hpp"

namespace adsem::linear_negation {

struct RuleMatch {
  std::map<std::string, Term> sigma;          // metavariable -> subterm
  std::map<std::string, std::string> binders; // pattern binder -> term binder
};

std::optional<RuleMatch> match_rule(const Pattern& p, const Term& t);

// What instantiating a right-hand side needs from the machine it runs in.
struct Instantiation {
  // A fresh name for a binder of the right that the left does not bind (its pattern name, type).
  std::function<std::string(const Binder&)> fresh;
  // A metavariable's subterm used a second time on the right, renamed apart.
  std::function<Term(const Term&)> rename_apart;
  // D(M) on the right of a clause of D: D of M's subterm (empty outside D clauses).
  std::function<Term(const Term&)> differentiate = {};
};

// The right-hand side with the match's subterms and binders: left binders keep the term's names,
// the right's own binders get fresh ones.
Term instantiate_rhs(const Pattern& p, const RuleMatch& m, const Instantiation& how);

// The variable standing for D(M) in an elaborated clause of D.
std::string d_call_name(const std::string& meta);

} // namespace adsem::linear_negation
