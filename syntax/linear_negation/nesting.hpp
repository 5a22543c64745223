#pragma once
// How deeply a linear-negation term may nest. The parser, the type checker, the printer and the
// renaming of the values rule (9) copies keep this one depth guard; they, D (Table 3) and the
// reducer's recursive walks (summaries, free-variable lists) run on a large stack
// (syntax/core/large_stack.hpp), so the guard and not the 8 MiB default stack bounds a term.
// 30,000 levels: a nested complexity family of 10,000 stages (`s (s (… x))`, `sin(tanh(… x))`),
// where seed 002's linear-cost claim (Cor. 16) is measured, counts two parser levels a stage
// (the application or primitive and its parenthesised argument) and so reads from source text
// (docs/reliability.md, "Limits").
namespace adsem::linear_negation {

inline constexpr int max_nesting = 30'000;

} // namespace adsem::linear_negation
