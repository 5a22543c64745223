#pragma once
// simple-diff's bounded-exhaustive inputs (properties/core/enumeration.hpp): every term
// x : real ⊢ M : real of the enumeration grammar (generators/simple_diff/enumeration.hpp), each
// at the points x = 0.5 and x = -1.5, as the Trial the properties' checks take.
#include <memory>
#include <vector>

#include "properties/core/enumeration.hpp"

namespace adsem::simple_diff {

// The points x takes (inside and outside log's domain).
const std::vector<double>& enumeration_points();
std::unique_ptr<props::InputEnumeration> enumeration(int max_size);

} // namespace adsem::simple_diff
