#pragma once
// Structural equivalence ≡ (Table 2d, seed 002 L369-383, spec §4.5): the context closure of the
// book's rules (18)-(22), both directions, on exponential ES (spec §4.5 [EXT] typing caveat). The
// reducer never needs ≡ to find a redex (Prop. 4); the properties use these steps to check that ≡
// preserves typing (Prop. 2) and meaning (Prop. 8).
#include <functional>
#include <string>
#include <vector>

#include "semantics/linear_negation/relations.hpp"
#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

// What the rules of ≡ read besides the node: the fresh names of (20)'s copy.
class EquivalenceSteps {
public:
  explicit EquivalenceSteps(Names& names) : names_(names) {}
  Names& names() { return names_; }

private:
  Names& names_;
};

struct EquivStep {
  std::string rule; // the name of the book's entry (equiv-18 … equiv-22)
  Term result;
};
// Every single ≡ step from t by `book`'s rules of ≡, node by node in pre-order and at a node in
// book order (fresh names for (20) from `names`).
std::vector<EquivStep> equivalence_steps(const Term& t, Names& names,
                                         const Rules& book = *paper_rules());

} // namespace adsem::linear_negation
