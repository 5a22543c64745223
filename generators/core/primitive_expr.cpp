#include "generators/core/primitive_expr.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace adsem::gen {

int size_of(const PrimExpr& e) {
  int n = 1;
  for (const PrimExpr& a : e.args)
    n += size_of(a);
  return n;
}

std::string to_string(const PrimExpr& e, const std::vector<std::string>& names) {
  switch (e.kind) {
  case PrimExpr::Kind::variable:
    return static_cast<std::size_t>(e.variable) < names.size()
               ? names[static_cast<std::size_t>(e.variable)]
               : fmt::format("x{}", e.variable);
  case PrimExpr::Kind::constant:
    return fmt::format("{}", e.constant);
  case PrimExpr::Kind::apply: {
    std::string out = e.primitive + "(";
    for (std::size_t i = 0; i < e.args.size(); ++i)
      out += (i ? ", " : "") + to_string(e.args[i], names);
    return out + ")";
  }
  }
  return "?";
}

void showValue(const PrimExpr& e, std::ostream& os) {
  os << to_string(e);
}

namespace {
void collect_primitives(const PrimExpr& e, std::vector<std::string>& out) {
  if (e.kind == PrimExpr::Kind::apply &&
      std::find(out.begin(), out.end(), e.primitive) == out.end())
    out.push_back(e.primitive);
  for (const PrimExpr& a : e.args)
    collect_primitives(a, out);
}

// Smaller variants of e for shrinking: each argument in place of an application, then the
// leaves x0 and 1.
std::vector<PrimExpr> simpler(const PrimExpr& e) {
  std::vector<PrimExpr> out;
  if (e.kind != PrimExpr::Kind::apply) return out;
  for (const PrimExpr& a : e.args)
    out.push_back(a);
  out.push_back(PrimExpr::var(0));
  out.push_back(PrimExpr::lit(1.0));
  return out;
}

rc::Gen<PrimExpr> sized_expr(int variables, int size) {
  const auto leaf =
      rc::gen::oneOf(rc::gen::map(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, variables)),
                                  [](int i) { return PrimExpr::var(i); }),
                     // Small exact constants keep domains reachable and expressions readable.
                     rc::gen::map(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(-8, 9)),
                                  [](int k) { return PrimExpr::lit(k / 2.0); }));
  if (size <= 1) return leaf;
  const auto application = rc::gen::mapcat(
      rc::gen::elementOf(smooth_primitive_names()), [variables, size](const std::string& name) {
        const std::size_t arity = primitives().at(name).arity();
        const int child = std::max(1, (size - 1) / static_cast<int>(arity));
        return rc::gen::map(
            rc::gen::container<std::vector<PrimExpr>>(
                arity, rc::gen::lazy([variables, child] { return sized_expr(variables, child); })),
            [name](std::vector<PrimExpr> args) { return PrimExpr::app(name, std::move(args)); });
      });
  return rc::gen::weightedOneOf<PrimExpr>({{1, leaf}, {3, application}});
}
} // namespace

std::vector<std::string> primitives_used(const PrimExpr& e) {
  std::vector<std::string> out;
  collect_primitives(e, out);
  return out;
}

const std::vector<std::string>& smooth_primitive_names() {
  static const std::vector<std::string> names = {"add", "sub", "mul", "div",  "neg", "sin",
                                                 "cos", "exp", "log", "sqrt", "tanh"};
  return names;
}

rc::Gen<PrimExpr> prim_expr(int variables) {
  return rc::gen::shrink(
      rc::gen::withSize([variables](int size) { return sized_expr(variables, 1 + size / 4); }),
      [](const PrimExpr& e) { return rc::seq::fromContainer(simpler(e)); });
}

} // namespace adsem::gen
