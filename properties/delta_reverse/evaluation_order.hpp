#pragma once
#include "properties/core/property.hpp"
#include "properties/delta_reverse/support.hpp"

namespace adsem::delta_reverse {

// Fig. 12's implementation (operands right to left, from_float allocating; rules.hpp) as
// a second evaluator beside Fig. 9's order (spec §9.3, §11 item 12).
props::PropertyDef evaluation_order_agreement();
// Its check of one program, with the cotangent drawn by `like` (enumeration: 1).
props::TrialResult evaluation_order_at(const support::Drawn& d, const support::DrawLike& like,
                                       const props::PropertyContext& context);

} // namespace adsem::delta_reverse
