#pragma once
// Reads terms as print() writes them:
//   t ::= x | c | -c | add(t, t) | mul(t, t) | sin(t) | cos(t) | (\x:T. t) | (t t) | (t)
//       | <t, t> | pi1 t | pi2 t
//   T ::= real | (T * T) | (T -> T)
// Throws a located AdsemError(ErrorKind::parse) on anything else.
#include <string_view>

#include "syntax/dual_numbers/term.hpp"

namespace adsem::dual_numbers {

Term parse(std::string_view source);
// A type alone (a rule file's `meta M : T`).
Type parse_type(std::string_view source);

} // namespace adsem::dual_numbers
