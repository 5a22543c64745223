#pragma once
// How deeply a linear-negation term may nest. The parser, the type checker, the printer and the
// renaming of the values rule (9) copies keep this one depth guard; they, D (Table 3) and the
// reducer's recursive walks (summaries, free-variable lists) run on a large stack
// (syntax/core/large_stack.hpp) when the term is deeper than the default stack safely takes, so
// the guard and not the 8 MiB default stack bounds a term. 30,000 levels: a nested complexity
// family of 10,000 stages (`s (s (… x))`, `sin(tanh(… x))`), where seed 002's linear-cost claim
// (Cor. 16) is measured, counts two parser levels a stage (the application or primitive and its
// parenthesised argument) and so reads from source text (docs/reliability.md, "Limits").
#include <cstddef>
#include <utility>

#include "syntax/core/large_stack.hpp"
#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

inline constexpr int max_nesting = 30'000;

// The depth the walks ran at on the default stack before they moved (the parser's old guard):
// a term this shallow stays on the caller's stack, which spares the small terms of a campaign
// the stack switch (a few system calls each).
inline constexpr int shallow_nesting = 2'000;

// Source text this short cannot nest deeper than shallow_nesting parser levels (two a character
// at most: an atom and its parenthesised term).
inline constexpr std::size_t shallow_text = shallow_nesting / 2;

// f(), on the large stack when t is deeper than shallow_nesting.
template <typename F> auto on_stack_for(const Term& t, F&& f) {
  if (t->height <= shallow_nesting) return f();
  return on_large_stack(std::forward<F>(f));
}

} // namespace adsem::linear_negation
