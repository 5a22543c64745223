#pragma once
// Matching a compiled user rule (rule_pattern.hpp) against a term of a run: the left-hand side of
// a `--rules` entry (user_rules.hpp) read as a first-order pattern whose declared metavariables
// bind subterms. Binders match up to α-renaming (the term's bound variable is renamed to the
// pattern's, so an instance mentions the rule's binders as instantiate() expects); a
// metavariable that occurs twice binds α-equivalent terms; a metavariable binds only a term of
// its declared type (every variable occurrence carries its type, so type_of is local); `x # M`
// holds. A match is refused, so the rule does not fire, when an instance mentions a variable of
// the enclosing term under a name the rule binds (plain replacement would capture it).
#include <map>
#include <optional>
#include <string>

#include "properties/pullback/rule_pattern.hpp"

namespace adsem::pullback {

using Substitution = std::map<std::string, Term>;

// σ with σ(LHS) ≡α t, or nullopt.
std::optional<Substitution> match_pattern(const Pattern& p, const Term& t);

} // namespace adsem::pullback
