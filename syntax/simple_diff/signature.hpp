#pragma once
// The operation and predicate symbols a parser and type checker need: `op : T → U` and
// `pred : T` (seed 003 line 152). The syntax layer does not own the primitive table; the
// semantics layer passes one in (semantics/simple_diff/operations.hpp).
#include <optional>
#include <string>
#include <string_view>

#include "syntax/simple_diff/type.hpp"

namespace adsem::simple_diff {

struct OpArity {
  std::string name; // canonical name (an alias such as "mult" resolves to "mul")
  Type domain;      // T
  Type codomain;    // U
};

struct PredArity {
  std::string name; // canonical name ("lt" resolves to "less")
  Type domain;      // T
};

class Signature {
public:
  virtual ~Signature() = default;
  // Includes the derived reverse derivatives op_r, op_r_r, ... (Op is closed under (-)_r).
  virtual std::optional<OpArity> op(std::string_view name) const = 0;
  virtual std::optional<PredArity> pred(std::string_view name) const = 0;
};

} // namespace adsem::simple_diff
