#pragma once
// Recursion guard: parsers, printers, type checkers and evaluators that recurse on the term
// must not overflow the C++ stack on deep input (design.md "Engineering rules"). Each recursive
// walk holds a DepthBudget and enters one DepthGuard per level; past the limit it throws a
// located AdsemError instead of crashing.
#include "syntax/core/diagnostic.hpp"

namespace adsem {

struct DepthBudget {
  // 10,000 nested frames stay far below the default 8 MiB stack for our frame sizes.
  static constexpr int default_limit = 10'000;
  int limit = default_limit;
  int depth = 0;
  ErrorKind kind = ErrorKind::parse;
};

// Past the budget: the located error (out of line, so that the guard's common path, an increment
// and a comparison, is inlined into every walk; it was a call of its own per level, about 1% of
// pullback/adequacy's instructions).
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_too_deep(DepthBudget& budget,
                                                                  std::optional<SourcePos> pos) {
  --budget.depth;
  throw AdsemError(budget.kind,
                   "term nested deeper than " + std::to_string(budget.limit) + " levels", pos);
}

class DepthGuard {
public:
  DepthGuard(DepthBudget& budget, std::optional<SourcePos> pos = std::nullopt) : budget_(budget) {
    if (++budget_.depth > budget_.limit) [[unlikely]]
      throw_too_deep(budget_, pos);
  }
  ~DepthGuard() { --budget_.depth; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

private:
  DepthBudget& budget_;
};

// A left-nested chain that a parser builds in a loop (a * b * c ...) is `links` levels deep in
// the tree although the parser did not recurse, and every later walk recurses on it. Past the
// budget it is rejected while parsing, before the tree is built: a 10 MB flat product used to
// take 2.5 GB and 15 s to reach the type checker's depth error (hostile inputs).
inline void check_chain(const DepthBudget& budget, int links, std::optional<SourcePos> pos) {
  if (budget.depth + links > budget.limit)
    throw AdsemError(budget.kind,
                     "term nested deeper than " + std::to_string(budget.limit) + " levels", pos);
}

} // namespace adsem
