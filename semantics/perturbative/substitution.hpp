#pragma once
// Capture-avoiding substitution M[P/x] (seed 004 Fig. 2, L187, L195-203; spec §2.4). The result
// is re-sugared: a sum substituted in operator position distributes; in argument position it is
// copied whole.
#include <string>

#include "syntax/core/depth_guard.hpp"
#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

Term substitute(const Term& m, const std::string& x, const Term& p);
Term substitute(const Simple& s, const std::string& x, const Term& p);
// A name based on `base` (primes appended) free in neither `avoid` set.
std::string fresh_name(std::string base, const std::set<std::string>& avoid);

} // namespace adsem::perturbative
