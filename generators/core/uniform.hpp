#pragma once
// Uniform draws recorded by RapidCheck (so that they shrink), whatever the current size:
// rc::gen::inRange scales its range with the size, which would starve the later alternatives of a
// choice at small sizes; the generators put the size into the depth of the term instead.
#include <cstddef>

#include <rapidcheck.h>

namespace adsem::gen {

// *resize(100, inRange(0, n)): the same values from the same random stream. The generators of
// the small n the term generators ask for are built once (building two generators per draw was
// a fifth of a delta-reverse adequacy trial).
std::size_t uniform_below(std::size_t n);

// *resize(100, inRange(lo, hi)), shrinking towards lo; made once for lo = 0 (as uniform_below)
// and for lo = 1 with a small hi.
int uniform_in(int lo, int hi);

// *resize(100, inRange(lo, hi)) for a range the draws above do not keep (a numeral's), made once
// by its owner. A draw hands RapidCheck's generation handler the generator `*` would build at
// each draw (the value-erasing wrapper of rapidcheck/Gen.hpp's operator*), so it records the same
// value and shrinks without that allocation.
class Uniform {
public:
  Uniform(int lo, int hi);
  int operator()() const;

private:
  rc::Gen<rc::detail::Any> gen_;
};

} // namespace adsem::gen
