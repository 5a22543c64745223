#pragma once
// The program families of `adsem complexity pullback` (properties/core/complexity.hpp).
#include <vector>

#include "properties/core/complexity.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

std::vector<props::ComplexityFamily> complexity_families();
// λp:R. let a₁ = add(⟨sin(p), p⟩) in … let aₙ = add(⟨sin(aₙ₋₁), p⟩) in aₙ, built without the
// parser.
Term long_range_let_term(int n);
// λp:Rⁿ. p₁ + … + pₙ, the wide sum's inputs as paths of one tuple over a shared spine (as `adsem
// grad` makes them of λx₁…λxₙ. x₁ + … + xₙ), built without the parser.
Term wide_sum_function(int n);

} // namespace adsem::pullback
