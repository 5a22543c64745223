#include "generators/core/uniform.hpp"

#include <string>
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

// A drawn int shrinking towards lo, as rc's type-erased value: what Gen<T>::operator* makes of
// inRange's draw (rapidcheck/Gen.hpp, gen/Numeric.hpp), map(shrinkRecur(v, towards(·, lo)),
// Any::of), with the same value and the same shrinks in the same order, in one node instead of
// two.
class Drawn {
public:
  Drawn(int value, int lo) : value_(value), lo_(lo) {}
  rc::detail::Any value() const { return rc::detail::Any::of(int{value_}); }
  rc::Seq<rc::Shrinkable<rc::detail::Any>> shrinks() const {
    return rc::seq::map(rc::shrink::towards<int>(value_, lo_),
                        [lo = lo_](int&& x) { return rc::makeShrinkable<Drawn>(x, lo); });
  }

private:
  int value_;
  int lo_;
};

// inRange(lo, hi) at size 100, type-erased (gen/Numeric.hpp): the same number of the same random
// stream, its range scaled once here rather than at each draw, and no wrappers of resize and map
// around it (they were a third of a draw, the random number most of the rest).
class Draw {
public:
  Draw(int lo, int hi)
      : lo_(lo), hi_(hi),
        range_(rc::gen::detail::scaleInteger(static_cast<rc::Random::Number>(hi) -
                                                 static_cast<rc::Random::Number>(lo) - 1,
                                             100) + // uniform_gen's size
               1) {}
  rc::Shrinkable<rc::detail::Any> operator()(const rc::Random& random, int /*size*/) const {
    if (hi_ <= lo_) // inRange's failure, which Gen::operator() turns into a failing value
      throw rc::GenerationFailure("Invalid range [" + std::to_string(lo_) + ", " +
                                  std::to_string(hi_) + ")");
    const auto value = static_cast<int>((rc::Random(random).next() % range_) + lo_);
    return rc::makeShrinkable<Drawn>(value, lo_);
  }

private:
  int lo_;
  int hi_;
  rc::Random::Number range_;
};

} // namespace

// Named as Gen<T>::operator* names the generator it hands over: by the generator's own name.
Uniform::Uniform(int lo, int hi)
    : gen_(rc::Gen<rc::detail::Any>(Draw(lo, hi)).as(uniform_gen(lo, hi).name())) {}

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
