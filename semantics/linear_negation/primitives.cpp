#include "semantics/linear_negation/primitives.hpp"

#include <cmath>
#include <stdexcept>

#include "semantics/core/primitives.hpp"

namespace adsem::linear_negation {

const Signature& signature() {
  static const Signature s = [](const std::string& spelling) -> std::optional<PrimInfo> {
    const Primitive* p = primitives().find(spelling);
    if (p == nullptr || p->is_predicate() || p->coarity() != 1) return std::nullopt;
    return PrimInfo{p->name(), static_cast<int>(p->arity())};
  };
  return s;
}

namespace {
Term call(const std::string& f, std::vector<Term> args) {
  return prim(f, std::move(args));
}
} // namespace

bool has_derivative(const std::string& f) {
  static const std::vector<std::string> known = {"add",  "sub",   "mul",    "div",  "neg", "recip",
                                                 "sq",   "sin",   "cos",    "exp",  "log", "sqrt",
                                                 "tanh", "sigma", "dsigma", "relu", "step"};
  return std::find(known.begin(), known.end(), f) != known.end();
}

// spec §7 table, column "derivative templates".
Term derivative_template(const std::string& f, int i, const std::vector<Term>& x) {
  const Term& x1 = x.at(0);
  if (f == "add") return num(1);
  if (f == "sub") return num(i == 1 ? 1 : -1);
  if (f == "mul") return i == 1 ? x.at(1) : x1;
  if (f == "div")
    return i == 1 ? call("recip", {x.at(1)})
                  : mul(num(-1), mul(x1, mul(call("recip", {x.at(1)}), call("recip", {x.at(1)}))));
  if (f == "neg") return num(-1);
  if (f == "recip") return mul(num(-1), mul(call("recip", {x1}), call("recip", {x1})));
  if (f == "sq") return mul(num(2), x1);
  if (f == "sin") return call("cos", {x1});
  if (f == "cos") return mul(num(-1), call("sin", {x1}));
  if (f == "exp") return call("exp", {x1});
  if (f == "log") return call("recip", {x1});
  if (f == "sqrt") return mul(num(0.5), call("recip", {call("sqrt", {x1})}));
  if (f == "tanh") return call("sub", {num(1), mul(call("tanh", {x1}), call("tanh", {x1}))});
  if (f == "sigma") return call("dsigma", {x1}); // ∂σ = dsigma (spec §8 E8, L642)
  if (f == "dsigma")
    return mul(call("dsigma", {x1}), call("sub", {num(1), mul(num(2), call("sigma", {x1}))}));
  if (f == "relu") return call("step", {x1}); // the table's convention (L166)
  if (f == "step") return num(0);
  throw std::invalid_argument("no derivative template for " + f);
}

std::optional<double> apply_primitive(const std::string& f, const std::vector<double>& args) {
  const Primitive& p = primitives().at(f);
  if (p.arity() != args.size() || !p.in_domain(args)) return std::nullopt;
  return p.apply_unchecked<double>(Args<double>(args)).front();
}

} // namespace adsem::linear_negation
