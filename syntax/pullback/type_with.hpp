#pragma once
// The type of a term read from its annotations (type_of's one step), the children's types given
// by the caller: A-normalisation types a term under the renamings it has not applied yet
// (semantics/pullback/anf.cpp).
#include <functional>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// The type of t from its own annotations and kid_type of the children type_of would ask about
// (a var: its annotation).
Type type_with(const Term& t, const std::function<Type(const Term&)>& kid_type);

} // namespace adsem::pullback
