#include "generators/core/uniform.hpp"

#include <utility>
#include <vector>

namespace adsem::gen {

namespace {

rc::Gen<int> uniform_gen(int lo, int hi) {
  return rc::gen::resize(100, rc::gen::inRange<int>(lo, hi));
}

// The largest total weight of a generator's weighted choice is 121.
constexpr int cached = 128;

// [lo, lo + 1) … [lo, lo + cached): immutable once built; rc::Gen counts its references
// atomically, so threads may share them.
std::vector<Uniform> made_from(int lo) {
  std::vector<Uniform> out;
  out.reserve(cached);
  for (int k = 0; k < cached; ++k)
    out.emplace_back(lo, lo + k + 1);
  return out;
}

// As Gen<T>::operator* wraps the generator (rapidcheck/Gen.hpp): mapped to rc's type-erased
// value, under the generator's own name.
rc::Gen<rc::detail::Any> erased(const rc::Gen<int>& g) {
  return rc::gen::map(g, &rc::detail::Any::of<int>).as(g.name());
}

} // namespace

Uniform::Uniform(int lo, int hi) : gen_(erased(uniform_gen(lo, hi))) {}

int Uniform::operator()() const {
  using rc::gen::detail::param::CurrentHandler;
  return std::move(rc::detail::ImplicitParam<CurrentHandler>::value()->onGenerate(gen_).get<int>());
}

std::size_t uniform_below(std::size_t n) {
  return static_cast<std::size_t>(uniform_in(0, static_cast<int>(n)));
}

int uniform_in(int lo, int hi) {
  static const std::vector<Uniform> from_zero = made_from(0);
  static const std::vector<Uniform> from_one = made_from(1);
  const int width = hi - lo;
  if (width >= 1 && width <= cached && (lo == 0 || lo == 1))
    return (lo == 0 ? from_zero : from_one)[static_cast<std::size_t>(width - 1)]();
  return *uniform_gen(lo, hi);
}

} // namespace adsem::gen
