#pragma once
// First-order expressions over the shared primitive table: variables x0..x(n-1), real constants
// and applications of smooth function primitives. They are the common ground of every calculus
// (the model's self-check, cross-calculus agreement), evaluated generically in the scalar type.
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "semantics/core/primitives.hpp"

namespace adsem::gen {

struct PrimExpr {
  enum class Kind { variable, constant, apply };
  Kind kind = Kind::constant;
  int variable = 0;           // Kind::variable
  double constant = 0.0;      // Kind::constant
  std::string primitive;      // Kind::apply: a name in primitives()
  std::vector<PrimExpr> args; // Kind::apply

  static PrimExpr var(int index) { return {Kind::variable, index, 0.0, {}, {}}; }
  static PrimExpr lit(double value) { return {Kind::constant, 0, value, {}, {}}; }
  static PrimExpr app(std::string name, std::vector<PrimExpr> arguments) {
    return {Kind::apply, 0, 0.0, std::move(name), std::move(arguments)};
  }
  friend bool operator==(const PrimExpr&, const PrimExpr&) = default;
};

// How RapidCheck shows a drawn expression in a counterexample.
void showValue(const PrimExpr& e, std::ostream& os);

// Nodes in the tree.
int size_of(const PrimExpr& e);
// "mul(x0, sin(x1))"; constants in shortest round-trip form. With names, variable i prints as
// names[i] ("mul(x, sin(y))").
std::string to_string(const PrimExpr& e, const std::vector<std::string>& names = {});
// The primitives an expression uses, each once, in first-use order (construct tags).
std::vector<std::string> primitives_used(const PrimExpr& e);

// The expression's value at `inputs` on any scalar the primitive table supports. Primitive
// domain violations throw model::Undefined (points) / model::Undecided (straddling boxes).
template <class S> S evaluate(const PrimExpr& e, std::span<const S> inputs) {
  switch (e.kind) {
  case PrimExpr::Kind::variable:
    return inputs[static_cast<std::size_t>(e.variable)];
  case PrimExpr::Kind::constant:
    return S(e.constant);
  case PrimExpr::Kind::apply: {
    std::vector<S> args;
    args.reserve(e.args.size());
    for (const PrimExpr& a : e.args)
      args.push_back(evaluate(a, inputs));
    return primitives().at(e.primitive).apply1(args);
  }
  }
  return S(0.0);
}

// The smooth R^k -> R primitives (k = 1, 2) that random expressions are built from.
const std::vector<std::string>& smooth_primitive_names();

// Sized expressions over `variables` inputs (every variable may appear); shrinks towards smaller
// trees: a subtree is replaced by one of its arguments, by a variable, or by a constant.
rc::Gen<PrimExpr> prim_expr(int variables);

} // namespace adsem::gen
