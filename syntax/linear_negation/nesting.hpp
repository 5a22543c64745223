#pragma once
// How deeply a linear-negation term may nest. The parser, the type checker, the printer and the
// renaming of the values rule (9) copies keep this one depth guard; they, D (Table 3) and the
// reducer's recursive walks (summaries, free-variable lists) run on a large stack
// (syntax/core/large_stack.hpp) when the term is deeper than the default stack safely takes, so
// the guard and not the 8 MiB default stack bounds a term. 50,000 levels, as delta-reverse's and
// pullback's reducer: the complexity families of 10,000 stages, where seed 002's linear-cost
// claim (Cor. 16) is measured, read from source text (a nested family counts two parser levels
// a stage, the application or primitive and its parenthesised argument) and reduce (the RNN of
// §6 nests deeper than 30,000 levels while it reduces at 10,000 inputs) (docs/reliability.md,
// "Limits").
#include <cstddef>
#include <utility>

#include "syntax/core/large_stack.hpp"
#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

inline constexpr int max_nesting = 50'000;

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
