#pragma once
// Capture-avoiding substitution (spec §2.3: recursive through dual maps and pullbacks, L173) and
// fresh names. Binders are renamed only when they would capture a free variable of the
// substituted term (spec §9.9).
#include <functional>
#include <initializer_list>
#include <set>
#include <string>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// t[s/x]
Term substitute(const Term& t, const std::string& x, const Term& s);
// t[s1/x1][s2/x2], the same term. [perf] One walk when that is the simultaneous substitution and
// neither step would rename a binder (x1 ≠ x2, x2 ∉ FV(s1), no binder of t or s1 named after a
// free variable of s1 or s2): rule 8 (seed 000 Fig. 3 L240) substitutes both of a stage's
// variables into the rest of the series, and the two walks rebuilt the same paths twice.
// Otherwise the two substitutions in turn (their renamings and fresh names exactly).
Term substitute_in_turn(const Term& t, const std::string& x1, const Term& s1, const std::string& x2,
                        const Term& s2);
// A name based on `base` that is not in `avoid` (and not produced before by this process).
std::string fresh_name(const std::string& base, const std::set<std::string>& avoid = {});
// The same, avoiding the free variables of the given terms (no set is built: the candidates are
// tested one by one, so the names drawn are exactly those of fresh_name with their free vars).
std::string fresh_name_free_in(const std::string& base, std::initializer_list<const Term*> terms);
// The general form: the first candidate for which taken(name) is false.
std::string fresh_name_where(const std::string& base,
                             const std::function<bool(const std::string&)>& taken);

} // namespace adsem::pullback
