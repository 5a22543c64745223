#pragma once
// Surface syntax of spec §2.7; the output re-parses (in target mode) to an α-equal term.
#include <string>

#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

std::string print(const Term& t);
std::string print_type(const Type& t);
std::string format_real(double r); // shortest round-trip spelling

} // namespace adsem::linear_negation
