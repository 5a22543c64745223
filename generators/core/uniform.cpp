#include "generators/core/uniform.hpp"

#include <vector>

#include <rapidcheck.h>

namespace adsem::gen {

namespace {

rc::Gen<int> uniform_gen(std::size_t n) {
  return rc::gen::resize(100, rc::gen::inRange<int>(0, static_cast<int>(n)));
}

constexpr std::size_t cached = 128; // the largest total weight of a generator's choice is 121

} // namespace

std::size_t uniform_below(std::size_t n) {
  // Immutable once built; rc::Gen counts its references atomically, so threads may share them.
  static const std::vector<rc::Gen<int>> gens = [] {
    std::vector<rc::Gen<int>> out;
    out.reserve(cached);
    for (std::size_t k = 0; k < cached; ++k)
      out.push_back(uniform_gen(k));
    return out;
  }();
  return static_cast<std::size_t>(n < cached ? *gens[n] : *uniform_gen(n));
}

} // namespace adsem::gen
