#pragma once
// linear-negation's bounded-exhaustive inputs (properties/core/enumeration.hpp), two families
// listed by size, the closed terms first:
//   - every closed term ⊢ t : R and ⊢ t : R × R of the enumeration grammar
//     (generators/linear_negation/enumeration.hpp), its binders made unique as the reducer needs
//     (spec §4.1): the input is the Typed term; the properties whose check runs S_rand run it at
//     each of enumeration_seeds() (the seed a random trial draws), the probes of step-soundness
//     at the same seed;
//   - every source program x1..xn ⊢ t : R of Λ(F) (spec §3.5) at its shape's fixed point
//     (enumeration_source_shapes()): the input is a gen::Source, what gen_src draws for the D,
//     bp and gradient properties. Its size is that of the closed program
//     t[x1 := r1]…[xn := rn] (Source::closed()): |t| + 2n.
#include <cstdint>
#include <memory>
#include <vector>

#include "properties/core/enumeration.hpp"

namespace adsem::linear_negation {

const std::vector<std::uint64_t>& enumeration_seeds();

// A source program's inputs x1..xn and the point it is checked at.
struct SourceShape {
  int inputs = 1;
  std::vector<double> point;
};
const std::vector<SourceShape>& enumeration_source_shapes();

std::unique_ptr<props::InputEnumeration> enumeration(int max_size);

} // namespace adsem::linear_negation
