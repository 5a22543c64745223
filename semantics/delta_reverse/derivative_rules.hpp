#pragma once
// New primitives from their partial derivatives (seed 001 §10.1, Fig. 14, L818-846; spec §7).
//
// HOW TO ADD A DIFFERENTIABLE PRIMITIVE f : R^n -> R: one entry in derivative_rules.cpp,
//
//   {"myop", 2, {"x2 * cos (x1 * x2)", "x1 * cos (x1 * x2)"}}
//
// i.e. its name, its arity n and its partial derivatives ∂f/∂x_j written in the surface syntax
// over the variables x1..xn : Real. The primal function itself is the shared primitive table's
// entry of the same name or alias (semantics/core/primitives.hpp, design.md "Primitives"), and the
// signature is one line in syntax/delta_reverse/signature.cpp. Every translation is generated from
// the entry: Dfwd's tangent Σ_j ∂_j f × dx_j (Fig. 3), Drev1's ⊕/⊗ (Fig. 5), Drev2's Add/Scale
// (Fig. 7) and Drev's deltaLet (Add_j (Scale (∂_j f) u_j)) (Fig. 14). The coefficients ∂_j f are
// computed in the forward pass and stored as plain reals (L827, L846). A partial written as the
// literal 1.0 contributes u_j itself, with no Scale: that is Fig. 9's rule for +R (L479-481).
#include <string>
#include <vector>

#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

struct DerivativeRule {
  std::string name; // canonical primitive name
  std::size_t arity = 1;
  std::vector<std::string> partials; // ∂f/∂x_j, surface syntax over x1..xn : Real
};

const std::vector<DerivativeRule>& derivative_rules();
const DerivativeRule* find_derivative_rule(const std::string& name);
// The parsed, type-checked partial ∂f/∂x_j (j 0-based); throws if the entry is ill-formed.
Term partial_term(const DerivativeRule& rule, std::size_t j);
// Is the partial the literal 1.0 (Fig. 9's +R: the Delta is used without a Scale)?
bool partial_is_one(const DerivativeRule& rule, std::size_t j);

} // namespace adsem::delta_reverse
