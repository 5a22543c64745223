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

class DepthGuard {
public:
  DepthGuard(DepthBudget& budget, std::optional<SourcePos> pos = std::nullopt) : budget_(budget) {
    if (++budget_.depth > budget_.limit) {
      --budget_.depth;
      throw AdsemError(budget_.kind,
                       "term nested deeper than " + std::to_string(budget_.limit) + " levels", pos);
    }
  }
  ~DepthGuard() { --budget_.depth; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

private:
  DepthBudget& budget_;
};

} // namespace adsem
