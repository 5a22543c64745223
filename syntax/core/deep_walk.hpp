#pragma once
// A recursive walk that holds a DepthBudget (depth_guard.hpp) runs on the caller's stack while it
// is shallow and continues on the large stack (large_stack.hpp) once it is shallow_levels deep:
// the budget, not the default 8 MiB stack, then bounds how deep a term may be, and the small
// terms of a campaign pay no stack switch (a few system calls each).
#include <utility>

#include "syntax/core/depth_guard.hpp"
#include "syntax/core/large_stack.hpp"

namespace adsem {

// The depth the walks ran at on the default stack before their guards were raised above it.
inline constexpr int shallow_levels = 2'000;

// f(), on the large stack when the walk holding `budget` is about to enter its level
// shallow_levels + 1 (call it before the level's DepthGuard). Once there, deeper calls run
// directly.
template <typename F> auto deeper(const DepthBudget& budget, F&& f) {
  if (budget.depth == shallow_levels) return on_large_stack(std::forward<F>(f));
  return f();
}

// Whether a walk `depth` levels deep continues on the large stack: it is shallow_levels or more
// deep and not on it yet. The walk asks at the top of its recursive function and, if so, calls
// itself again through on_large_stack: one function and one comparison per level, no wrapper call
// (`deeper` as a wrapper cost pullback's substitution about 1% of a campaign), and it also serves
// a walk that enters a term at some depth rather than level by level from the root (pullback's
// refocusing search resumes at the frame it left), where one switch at exactly shallow_levels
// would be missed.
inline bool leaves_default_stack(int depth) {
  return depth >= shallow_levels && !running_on_large_stack();
}

} // namespace adsem
