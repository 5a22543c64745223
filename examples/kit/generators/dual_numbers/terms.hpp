#pragma once
// Well-typed terms of dual-numbers, drawn inside a RapidCheck property (the draws shrink).
#include "syntax/dual_numbers/term.hpp"

namespace adsem::dual_numbers::gen {

// A type for a bound variable or an argument: real, real × real or real → real.
Type small_type();
// Γ ⊢ t : τ with at most `depth` nested constructs, Γ's variables used where they fit.
Term term(const TypeContext& gamma, const Type& tau, int depth);
// x : real ⊢ t : real of depth 1 to `depth`, the body of a function R → R (AD correctness,
// adequacy at a point).
Term real_function_body(const std::string& x, int depth = 5);
// A numeral on a quarter grid in [-3, 3].
double numeral();

} // namespace adsem::dual_numbers::gen
