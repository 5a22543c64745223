#pragma once
// Printer for the ASCII syntax of spec §2.7. Its output re-parses to an α-equal term (the
// round-trip property): let binders print their type, covector literals at non-Rⁿ types print
// with an ascription, pattern binders print as the variable they desugar to.
#include <string>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

std::string print(const Term& t);
std::string number_text(double x);

} // namespace adsem::pullback
