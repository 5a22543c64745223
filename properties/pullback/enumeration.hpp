#pragma once
// pullback's bounded-exhaustive inputs (properties/core/enumeration.hpp), two families, each
// input of size n the smallest first:
//   - every closed term ⊢ M : R and ⊢ M : R* of the enumeration grammar
//     (generators/pullback/enumeration.hpp): source terms, dual maps, covectors and gradient
//     queries ((Ω λx:R. P)·ω) V, as the Term the closed-term checks take;
//   - the gradient queries ((Ω λy1:σ. P)·(λu:τ. [c]*)) V of every source body y1:σ ⊢ P : τ of
//     the grammar, at the shape's fixed point V and cotangent c (enumeration_query_shapes), as the
//     gen::Query the reverse-mode and ANF checks take (the closed-term checks take its term). A
//     query's size is its term's (the frame adds 5 nodes at σ = R, 7 at σ = R × R).
// One input per term or body: no further point.
#include <cstdint>
#include <memory>
#include <vector>

#include "properties/core/enumeration.hpp"
#include "properties/core/property.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// The seed of the probes soundness-of-steps, translation, simulation, dot-product-test,
// jacobian-bodies and soundness-of-anf compare two values with (random model values of the free
// variables a premise step introduces, probe arguments at function types, the vectors u of a
// transpose and the directions v of a Jacobian body): fixed, so that an enumerated term has one
// verdict.
inline constexpr std::uint64_t enumeration_probe_seed = 20260522;

// A gradient query's fixed frame: σ and τ, the point V : σ and the constant cotangent c : τ.
struct QueryShape {
  Type sigma, tau;
  std::vector<double> point;     // V, flattened
  std::vector<double> cotangent; // ω = λu:τ. [c]*
};
// (R, R), (R, R × R), (R × R, R), (R × R, R × R); V = 0.5 or (0.5, -1.5) (not numerals of the
// grammar, so no query is also a closed term of the first family); c = 1 or (1, 1), the
// cotangent the random tape and cost queries take (reverse_mode.cpp, with_constant_cotangent).
const std::vector<QueryShape>& enumeration_query_shapes();

std::unique_ptr<props::InputEnumeration> enumeration(int max_size);
// Gives the properties that check one drawn term their check_input: round-trip, adequacy,
// subject-reduction, strong-normalisation, unique-decomposition, and soundness-of-steps,
// translation, simulation, dot-product-test and jacobian-bodies (their probes from
// enumeration_probe_seed); and those that check one drawn gradient query: reverse-mode-first-order,
// reverse-mode-vs-finite-differences, reverse-mode-vs-intervals, tape-agreement and
// cost-reverse-mode (the last two on straight-line bodies), and anf-shape and soundness-of-anf
// (its probes from enumeration_probe_seed) on the query's source body.
void take_part_in_enumeration(std::vector<props::PropertyDef>& properties);

} // namespace adsem::pullback
