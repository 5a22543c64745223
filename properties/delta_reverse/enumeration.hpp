#pragma once
// delta-reverse's bounded-exhaustive inputs (properties/core/enumeration.hpp): every main
// expression λx:Real. e : Real → Real whose body is a term of the enumeration grammar
// (generators/delta_reverse/enumeration.hpp), each at the points x = 0.5 and x = -1.5, as the
// support::Drawn the properties' checks take.
#include <memory>
#include <vector>

#include "properties/core/enumeration.hpp"
#include "properties/core/property.hpp"

namespace adsem::delta_reverse {

const std::vector<double>& enumeration_points();
std::unique_ptr<props::InputEnumeration> enumeration(int max_size);
// Gives the properties that check one drawn program their check_input: adequacy,
// translation-typing (the program's four translations), forward-correctness and
// reverse-correctness (with the tangent and the cotangent 1).
void take_part_in_enumeration(std::vector<props::PropertyDef>& properties);

} // namespace adsem::delta_reverse
