#pragma once
#include "properties/core/property.hpp"

namespace adsem::delta_reverse {

// Fig. 12's implementation (operands right to left, from_float allocating; rules.hpp) as
// a second evaluator beside Fig. 9's order (spec §9.3, §11 item 12).
props::PropertyDef evaluation_order_agreement();

} // namespace adsem::delta_reverse
