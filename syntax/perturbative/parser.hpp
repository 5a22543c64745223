#pragma once
// Parser and elaborator for the ASCII surface syntax of spec §2.7 [OURS] into the annotated AST.
// Elaboration is bidirectional (spec §2.7): `0` and `in_k` are checked, never synthesised.
// Errors are AdsemError(parse) or AdsemError(type) with line:column.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

// The type of a constant (primitive) name, or nullopt when the name is not a constant. Variables
// shadow constants (spec M15 binds `g`, a name of the shared table).
using ConstantTypes = std::function<std::optional<Type>(const std::string&)>;

// A typing context Γ; x:σ (rightmost binding wins, Fig. 1 Var).
using Context = std::vector<std::pair<std::string, Type>>;

Term parse_term(std::string_view source, const ConstantTypes& constants, const Context& gamma = {});
Type parse_type(std::string_view source);

} // namespace adsem::perturbative
