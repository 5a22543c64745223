#pragma once
#include "properties/core/property.hpp"
#include "properties/delta_reverse/support.hpp"

namespace adsem::delta_reverse {

// The overloading interpreter (semantics/delta_reverse/overloading.hpp) against the translation
// Drev it implements directly (seed 001 §8 L629-641; spec §4.2, P14): the same tape, bit for bit.
props::PropertyDef overloading_tape_agrees();
// Its check of one program, with the cotangent drawn by `like` (enumeration: 1).
props::TrialResult overloading_agrees_at(const support::Drawn& d, const support::DrawLike& like,
                                         const props::PropertyContext& context);

} // namespace adsem::delta_reverse
