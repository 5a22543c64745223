#pragma once
// The reverse-mode derivative `M.rd_L(x:T. N)` (seed 003 lines 138, 207-219): symbolic
// evaluation of N at x = V to a trace C (control removed, x kept free), symbolic
// differentiation W.R_V(x:T. C), then (in O-rd) ordinary evaluation of the result.
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff {

// W.R_V(x:T. C) where φ | ρ[x ↦ point_value] ⊢ N ⇝ C, for the rd node `rd` with point term V,
// cotangent term W (open values in ρ, or closed ones) and ρ(V) = point_value.
Term rd_trace(Machine& m, const FunEnv& phi, const Node& rd, const Term& point,
              const Term& cotangent, const Value& point_value);

} // namespace adsem::simple_diff
