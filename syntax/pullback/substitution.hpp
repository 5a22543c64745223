#pragma once
// Capture-avoiding substitution (spec §2.3: recursive through dual maps and pullbacks, L173) and
// fresh names. Binders are renamed only when they would capture a free variable of the
// substituted term (spec §9.9).
#include <set>
#include <string>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// t[s/x]
Term substitute(const Term& t, const std::string& x, const Term& s);
// A name based on `base` that is not in `avoid` (and not produced before by this process).
std::string fresh_name(const std::string& base, const std::set<std::string>& avoid = {});

} // namespace adsem::pullback
