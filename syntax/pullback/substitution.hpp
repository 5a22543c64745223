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
// A name based on `base` that is not in `avoid` (and not produced before by this process).
std::string fresh_name(const std::string& base, const std::set<std::string>& avoid = {});
// The same, avoiding the free variables of the given terms (no set is built: the candidates are
// tested one by one, so the names drawn are exactly those of fresh_name with their free vars).
std::string fresh_name_free_in(const std::string& base, std::initializer_list<const Term*> terms);
// The general form: the first candidate for which taken(name) is false.
std::string fresh_name_where(const std::string& base,
                             const std::function<bool(const std::string&)>& taken);

} // namespace adsem::pullback
