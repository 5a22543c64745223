#pragma once
// First-order matching of a user rule's left-hand side (rule_pattern.hpp) against a term: a
// metavariable binds a subterm of its declared type (the same metavariable twice binds
// α-equivalent terms), a binder of the pattern matches any binder of the same type (up to
// α-renaming), numerals and primitives match themselves. A sum in an argument matches a sum with
// as many summands in any order (sums are multisets, L165-185), except that a metavariable alone
// in an argument binds the whole argument (any sum, 0 included). A bound term is expressed with
// the pattern's binder names (so that instantiate() places it under the right-hand side's
// binders); a term that mentions a binder the metavariable may not see (`x # M`, or a binder it
// is not under on the left) does not match.
#include <map>
#include <optional>
#include <string>

#include "properties/perturbative/rule_pattern.hpp"

namespace adsem::perturbative {

struct Match {
  std::map<std::string, Term> sigma; // metavariable -> its term
  // The right-hand side to instantiate: the pattern's, or the pattern's with its binders renamed
  // when one of their names is free in the redex (a bound term mentions it: no capture).
  Term rhs;
};

// σ with σ(LHS) = s up to α, or nullopt. The left-hand side must be one simple term.
std::optional<Match> match(const Pattern& p, const Simple& s);

} // namespace adsem::perturbative
