#pragma once
// How deeply a delta-reverse term may nest: the depth guard of the parser, the type checker, the
// printer, the translations (Figs. 3, 5, 7, 9) and the Delta evaluation (Fig. 10). They move to a
// large stack past 2,000 levels (syntax/core/deep_walk.hpp), so this guard and not the default
// 8 MiB stack bounds a term. 50,000 levels: each complexity family of 10,000 stages, where seed
// 001's linear-cost claim (§7.4) is measured, reads from source text; the deepest, the wide sum
// `\(x1 : Real, ..., xn : Real). x1 + ... + xn`, nests four levels a summand (the tuple parameter's
// destructuring lets and the sum's addR application and pair): 40,000 at n = 10,000.
#include <cstddef>

namespace adsem::delta_reverse {

inline constexpr int max_source_nesting = 50'000;

// Source text this short stays on the caller's stack while it is parsed: a character opens at
// most three parser levels (a parenthesis: expression, unary, application item), and the parser
// ran 10,000 levels on the default stack before its guard was raised.
inline constexpr std::size_t shallow_text = 2'000;

} // namespace adsem::delta_reverse
