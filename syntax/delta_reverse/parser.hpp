#pragma once
// Recursive-descent parser for the ASCII surface syntax of spec §2.2 (a [proposal] of the spec;
// the paper's binders are unannotated). Sugar is removed here (spec §2.2 "Desugaring"): infix
// + - * / become addR/subR/mulR/divR on pairs, unary - becomes negR (on a literal it folds into
// the literal), tuple patterns become let-chains through intermediate variables (linear cost).
// `e.i` stays a proj node until type checking (it is type-directed). Errors: AdsemError(parse)
// with line:column.
#include <string>

#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

Term parse_term(const std::string& source);
Type parse_type(const std::string& source);

} // namespace adsem::delta_reverse
