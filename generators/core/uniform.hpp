#pragma once
// A uniform draw in [0, n) recorded by RapidCheck (so that it shrinks), whatever the current size.
#include <cstddef>

namespace adsem::gen {

// *resize(100, inRange(0, n)): the same values from the same random stream. The generators of
// the small n the term generators ask for are built once (building two generators per draw was
// a fifth of a delta-reverse adequacy trial).
std::size_t uniform_below(std::size_t n);

} // namespace adsem::gen
