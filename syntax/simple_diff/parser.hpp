#pragma once
// Parser for the ASCII surface syntax of spec abadi-plotkin.md §2.6 (a toolkit proposal; the
// paper has no concrete syntax). Derived forms are expanded here (derived.hpp). Errors are
// AdsemError(ErrorKind::parse) at line:column.
#include <string_view>

#include "syntax/simple_diff/ast.hpp"
#include "syntax/simple_diff/signature.hpp"

namespace adsem::simple_diff {

Term parse_term(std::string_view source, const Signature& signature);
Type parse_type(std::string_view source);

// The paper's binder form `(x:T. N)`, with or without the parentheses (CLI `grad`, `denote`).
struct BinderForm {
  std::string x;
  Type type;
  Term body;
  SourcePos pos;
};
BinderForm parse_binder_form(std::string_view source, const Signature& signature);

} // namespace adsem::simple_diff
