#pragma once
// The primitives F ⊆ F' of spec §7 over the shared table (semantics/core/primitives.hpp), with
// the derivative templates ∂f/∂i (spec §4.8 [EXT] "Derivative templates": a term over the
// parameters x1..xk; the paper inlines them the same way, e.g. cos(w2) L271, 1·c, (-1)·c L187).
#include <optional>
#include <string>
#include <vector>

#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/signature.hpp"

namespace adsem::linear_negation {

// Function primitives of the shared table with one result (predicates are not in F).
const Signature& signature();

// ∂f/∂i (1-based i) applied to the argument terms (normally variables).
Term derivative_template(const std::string& f, int i, const std::vector<Term>& args);
bool has_derivative(const std::string& f);

// ⟦f⟧(r) on doubles, nullopt outside f's domain (rule (23) then does not fire, spec §4.2 [EXT]).
std::optional<double> apply_primitive(const std::string& f, const std::vector<double>& args);

} // namespace adsem::linear_negation
