#pragma once
// ⟦t⟧ in semantics/core's numeric model: reals are tagged duals, so the model's derivatives
// (model::derivatives) are exact; primitives are the model's table, the same the δ-rules apply.
#include <string>
#include <utility>
#include <vector>

#include "semantics/core/value.hpp"
#include "syntax/dual_numbers/term.hpp"

namespace adsem::dual_numbers {

using V = model::Value<double>;
using Env = std::vector<std::pair<std::string, V>>;

V denote(const Term& t, const Env& env);

} // namespace adsem::dual_numbers
