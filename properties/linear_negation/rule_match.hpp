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
//  - types: the redex carries types on its binders only. With the types of the variables free in
//    the redex (`TypeOf`, the reducer's), a metavariable's subterm must type-check at the
//    metavariable's type (Table 1, as an exponential term; the variables bound by linear binders
//    are taken at their type R^d, so linearity of the subterm's free variables is not checked).
//    Where a free variable's type is unknown, or without `TypeOf`, the subterm is checked by its
//    shape only (a numeral, primitive, pair or abstraction core, or a sum of them, cannot stand
//    for a metavariable of another type former).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "properties/linear_negation/rule_pattern.hpp"

namespace adsem::linear_negation {

struct RuleMatch {
  std::map<std::string, Term> sigma;          // metavariable -> subterm
  std::map<std::string, std::string> binders; // pattern binder -> term binder
};

// The type a variable free in the matched term is bound at, or null when it is not known.
using TypeOf = std::function<const Type*(std::string_view)>;

std::optional<RuleMatch> match_rule(const Pattern& p, const Term& t, const TypeOf& type_of = {});

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
