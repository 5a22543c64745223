#include "generators/core/uniform.hpp"

#include <vector>

#include <rapidcheck.h>

namespace adsem::gen {

namespace {

rc::Gen<int> uniform_gen(int lo, int hi) {
  return rc::gen::resize(100, rc::gen::inRange<int>(lo, hi));
}

// The largest total weight of a generator's weighted choice is 121.
constexpr int cached = 128;

// [lo, lo + 1) … [lo, lo + cached): immutable once built; rc::Gen counts its references
// atomically, so threads may share them.
std::vector<rc::Gen<int>> made_from(int lo) {
  std::vector<rc::Gen<int>> out;
  out.reserve(cached);
  for (int k = 0; k < cached; ++k)
    out.push_back(uniform_gen(lo, lo + k + 1));
  return out;
}

} // namespace

std::size_t uniform_below(std::size_t n) {
  return static_cast<std::size_t>(uniform_in(0, static_cast<int>(n)));
}

int uniform_in(int lo, int hi) {
  static const std::vector<rc::Gen<int>> from_zero = made_from(0);
  static const std::vector<rc::Gen<int>> from_one = made_from(1);
  const int width = hi - lo;
  if (width >= 1 && width <= cached && (lo == 0 || lo == 1))
    return *(lo == 0 ? from_zero : from_one)[static_cast<std::size_t>(width - 1)];
  return *uniform_gen(lo, hi);
}

} // namespace adsem::gen
