#pragma once
// Parser for the ASCII surface syntax of spec §2.7 [ID-4], with elaboration: pattern binders,
// numeral tuples, `Omega [r..]` and `<M1,M2,M3>` are desugared (spec §2.7 "Desugaring"), and
// every variable occurrence gets the type of its binder. Errors are AdsemError(parse) with
// line:column (unbound variables: AdsemError(type) at the occurrence).
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// What the parser needs to know about primitives (filled from the shared table by
// semantics/pullback/primitive_table.hpp): canonical name and signature dom ⇒ cod.
struct PrimitiveInfo {
  std::string name;
  Type signature;
};
using Signature = std::function<std::optional<PrimitiveInfo>(const std::string&)>;

struct ParseOptions {
  Signature signature;
  std::map<std::string, Type> free; // types of free variables allowed in the source
};

Term parse_term(const std::string& source, const ParseOptions& options);
Type parse_type(const std::string& source);

} // namespace adsem::pullback
