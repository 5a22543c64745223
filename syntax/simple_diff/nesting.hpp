#pragma once
// How deeply a simple-diff source term may nest: the depth guard of the parser, the type checker,
// the printer and α-equivalence, which run on a large stack (syntax/core/large_stack.hpp). It is
// twice the other walks' 10,000 (DepthBudget::default_limit) so that a let series of 10,000 stages,
// where R-fast's linear cost is measured (spec §9 P-1(b); docs/performance.md), reads from source
// text: its lets are 10,000 levels beside the stages' operations and the last body. The machine's
// walks have their own budget (Options::max_depth, semantics/simple_diff/machine.hpp).
namespace adsem::simple_diff {

inline constexpr int max_source_nesting = 20'000;

} // namespace adsem::simple_diff
