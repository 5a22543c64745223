#pragma once
// How deeply a pullback source term may nest: the depth guard of the parser, the type checker
// and the zero annotator, which run on a large stack (syntax/core/large_stack.hpp). It is twice
// the other walks' 10,000 (DepthBudget::default_limit) so that a let series of 10,000 stages,
// where seed 000's linear-cost claim is measured (§5.1 L519; docs/performance.md), reads from
// source text: its lets are 10,000 levels beside its λ and the last stage's body. The reducer,
// substitution and the printer keep 10,000 and stop a deeper term with their own depth error
// (docs/reliability.md, "Limits").
namespace adsem::pullback {

inline constexpr int max_source_nesting = 20'000;

} // namespace adsem::pullback
