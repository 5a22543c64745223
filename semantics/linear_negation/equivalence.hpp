#pragma once
// Structural equivalence ≡ (Table 2d, seed 002 L369-383, spec §4.5): the context closure of
// (18)-(22), both directions, on exponential ES (spec §4.5 [EXT] typing caveat). The reducer never
// needs ≡ to find a redex (Prop. 4); the properties use these steps to check that ≡ preserves
// typing (Prop. 2) and meaning (Prop. 8).
#include <functional>
#include <string>
#include <vector>

#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

struct EquivStep {
  std::string rule; // "equiv-18" … "equiv-22"
  Term result;
};
// Every single ≡ step from t (fresh names for (20) from `names`).
std::vector<EquivStep> equivalence_steps(const Term& t, Names& names);

} // namespace adsem::linear_negation
