#pragma once
// [OURS] (spec §7): the constants of the calculus are the shared primitive table's smooth
// primitives of arity 1 (R → R) and 2 (R × R → R) for which a pushforward template τ_p exists
// (templates.hpp). The paper itself has no constants (L135-139).
#include "syntax/perturbative/parser.hpp"

namespace adsem::perturbative {

// Type of a constant name, for the parser and the type checker.
const ConstantTypes& constant_types();
// The constants in table order (for generators and docs).
const std::vector<std::string>& constant_names();

} // namespace adsem::perturbative
