#pragma once
// A weighted choice among a generator's productions: one draw over the total weight, then only the
// chosen production is built. The productions are lambdas held by the call (as std::function
// values in a vector they cost a heap block each at every node drawn). A production of weight 0
// is absent: the draw and the choice are those of the same list without it.
#include <type_traits>
#include <utility>

namespace adsem::gen {

template <class Build> struct Weighted {
  int weight;
  Build build;
};

template <class Build> Weighted<Build> option(int weight, Build build) {
  return {weight, std::move(build)};
}

// pick(total) draws in [0, total) (the generator's own draw: whether a total of 1 is drawn is
// its choice); at least one weight is positive.
template <class Pick, class... Build>
std::common_type_t<std::invoke_result_t<Build&>...> choose(Pick&& pick,
                                                           Weighted<Build>... options) {
  int k = static_cast<int>(pick((options.weight + ...)));
  std::common_type_t<std::invoke_result_t<Build&>...> out{};
  (void)((k < options.weight ? (out = options.build(), true) : (k -= options.weight, false)) ||
         ...);
  return out;
}

} // namespace adsem::gen
