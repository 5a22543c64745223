#pragma once
// How deeply a pullback term may nest.
//
// max_source_nesting: the depth guard of the parser, the type checker and the zero annotator,
// which run on a large stack (syntax/core/large_stack.hpp). It is twice the other calculi's
// default 10,000 (DepthBudget::default_limit) so that a let series of 10,000 stages, where seed
// 000's linear-cost claim is measured (§5.1 L519; docs/performance.md), reads from source text:
// its lets are 10,000 levels beside its λ and the last stage's body.
//
// max_term_nesting: the reducer's search, substitution, A-normalisation and the printer, which
// move to the large stack once a walk is 2,000 levels deep (syntax/core/deep_walk.hpp). The
// gradient query of an n-stage let series nests about 2n levels while it reduces (n = 4,000 ran
// under the old 10,000, n = 5,000 did not), the sharing chain's between 3n and 5n (n = 10,000
// runs under 50,000, not under 30,000), so the paper's mechanism runs both to n = 10,000 with
// room to spare (the App. A.2 literal ANF's sharing chain stops at n = 5,000); past it, a located
// depth error (docs/reliability.md, "Limits").
namespace adsem::pullback {

inline constexpr int max_source_nesting = 20'000;
inline constexpr int max_term_nesting = 50'000;

} // namespace adsem::pullback
