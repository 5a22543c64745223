#pragma once
// The primitives a term may call, as the syntax layer sees them: a spelling (name or alias) maps
// to the shared table's name and arity. The semantics layer builds it from the one primitive
// table (semantics/linear_negation/primitives.hpp); the syntax layer does not link the model.
#include <functional>
#include <optional>
#include <string>

namespace adsem::linear_negation {

struct PrimInfo {
  std::string name;
  int arity = 1;
};
using Signature = std::function<std::optional<PrimInfo>(const std::string&)>;

} // namespace adsem::linear_negation
