#pragma once
// Recursive-descent parser for the ASCII surface syntax of spec §2.7 (seed 002 grammar (5),(6),
// L295-300). Errors are AdsemError(parse) at line:column.
#include <string>

#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/signature.hpp"

namespace adsem::linear_negation {

// target: Λ⊥(F') (`\z:R.` is a linear binder); source: Λ(F) (`\x:R.` means `\x:!R.`, spec §2.7).
enum class Mode { source, target };

// Primitive calls f(t1, …) are resolved through `signature` (name or alias -> table name).
Term parse_term(const std::string& text, const Signature& signature, Mode mode = Mode::target);
Type parse_type(const std::string& text);

} // namespace adsem::linear_negation
