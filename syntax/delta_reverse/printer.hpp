#pragma once
// Surface syntax of spec §2.2 for source and target terms. The output re-parses to the same term
// (the round-trip property): binary real primitives applied to a pair print infix, tuples print
// flat, negative literals print in parentheses.
#include <string>

#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

std::string print(const Term& t);
// A real literal as the parser reads it back bit for bit ("2.0", "1.5e-07", "-0.5").
std::string print_real(double r);

} // namespace adsem::delta_reverse
