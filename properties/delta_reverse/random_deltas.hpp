#pragma once
// Spec §10's Delta generator (for P12): random Delta trees (L489-495) drawn directly, not from a
// tape, so that Lets sit under Scale and Add and bodies use their ids.
#include <cstdint>

#include "semantics/delta_reverse/values.hpp"

namespace adsem::delta_reverse {

// A Delta over the free ids 1..free_ids of depth at most `depth`: Zero 5%, Var 35%, Scale 25%
// (coefficients in quarters, -5..5), Add 25%, Let 10% (at depth ≤ 0: Zero and Var only). Let ids
// are next_let, next_let + 1, ... (fresh and increasing), and half the bodies use their id. The
// choices are drawn uniformly at every size (generators/core/uniform.hpp): rc::gen::inRange
// narrows with RapidCheck's size, and at sizes up to 50 a choice of 0..99 stayed below 50, so
// that only Zero, Var and Scale were drawn.
Delta random_delta(int free_ids, std::int64_t& next_let, int depth);

} // namespace adsem::delta_reverse
