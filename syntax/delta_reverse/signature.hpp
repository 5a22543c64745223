#pragma once
// The primitive constants of the language (spec §2.2 PRIMNAME, §7) with their types (T-Op):
// binary primitives take a pair (L66-76: x + y is +R (x, y)). Aliases are the shared table's
// names (design.md "Primitives"); the parser maps them to the canonical name.
#include <optional>
#include <string>
#include <vector>

#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

struct PrimSignature {
  std::string name;
  std::vector<std::string> aliases;
  Type type;
};

const std::vector<PrimSignature>& prim_signatures();
// The canonical name of a primitive or alias; nullopt for other identifiers.
std::optional<std::string> canonical_prim(const std::string& name);
// The type of a canonical primitive name (nullptr if unknown).
Type prim_type(const std::string& name);
// The boolean encoding Z + Z (L158): inl 0 is true, inr 0 is false (our choice, docs).
Type bool_type();

} // namespace adsem::delta_reverse
