#pragma once
// Matching a user rule's left-hand side against a redex of the reduction, and building its
// right-hand side from the match (`--rules`). First-order matching of the pattern
// (rule_pattern.hpp); the redexes of closed call-by-value reduction are closed terms, so:
//  - a metavariable binds the subterm at its place, which must have the metavariable's type in
//    the types of the match's binders around it; a second occurrence must be the same term;
//  - binders match binders of the same type, a pattern binder naming one term binder per match;
//  - a metavariable's subterm may mention a binder of the match only where the pattern lets it
//    (the binders of the left around every occurrence, less `x # M`);
//  - numerals match equal numerals.
#include <map>
#include <optional>
#include <string>

#include "properties/dual_numbers/rule_pattern.hpp"

namespace adsem::dual_numbers {

struct RuleMatch {
  std::map<std::string, Term> sigma;          // metavariable -> subterm
  std::map<std::string, std::string> binders; // pattern binder -> term binder
};

std::optional<RuleMatch> match_rule(const Pattern& p, const Node& t);

// The right-hand side with the match's subterms and binders; a binder only the right has keeps
// its pattern name unless a subterm of the match mentions that name (then primes are added).
Term instantiate_rhs(const Pattern& p, const RuleMatch& m);

} // namespace adsem::dual_numbers
