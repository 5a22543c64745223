#pragma once
// dual-numbers' properties: what the paper proves of the language and of D, checked on random
// well-typed terms.
#include <functional>
#include <string_view>
#include <vector>

#include "properties/core/property.hpp"
#include "syntax/dual_numbers/term.hpp"

namespace adsem::dual_numbers {

std::vector<props::PropertyDef> properties();

// The round-trip check of one closed term with the parser it is given: print, then parse_back,
// must give the same term (kit test: a wrong parser fails it, dual-numbers-selftest).
props::TrialResult round_trip_of(const Term& t,
                                 const std::function<Term(std::string_view)>& parse_back);

} // namespace adsem::dual_numbers
