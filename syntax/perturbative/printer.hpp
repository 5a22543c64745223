#pragma once
// Pretty-printer (spec §2.7 "Pretty-printer"): fully parenthesised surface syntax that re-parses
// to the same term (modulo the order of summands). Bags of injections at product type print as
// pairs; a 0 or an injection that must be synthesised is ascribed.
#include <string>

#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

std::string print(const Term& m);          // in a synthesis position (top level)
std::string print_simple(const Simple& s); // one summand
std::string print_type(const Type& t);     // "R * R -> R"
std::string print_number(double r);        // shortest round-trip text

} // namespace adsem::perturbative
