#pragma once
// What the per-term commands (type, eval, reduce, denote, grad) refuse to print as an answer,
// as domain errors (exit 1) in every calculus alike (docs/reliability.md "Numbers"):
//  - a real that is not finite: no calculus has a literal for infinity or NaN, so a printed
//    value would not read back as the same value;
//  - a normal form stuck at a primitive applied to numerals outside its domain: the papers give
//    no rule there (the reduction stays stuck), and the model is undefined at that point.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "semantics/core/model_errors.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/value.hpp"
#include "syntax/core/real_text.hpp"

namespace adsem::props {

// `where` names the real: "the value", "component 2 of the gradient", "a numeral of the normal
// form"...
inline AdsemError not_finite(const std::string& where, double x) {
  return AdsemError(ErrorKind::domain,
                    fmt::format("{} is not finite ({}): no calculus has a literal for it, so "
                                "adsem reports it instead of printing it",
                                where, x));
}

inline void require_finite(const std::string& where, double x) {
  if (!std::isfinite(x)) throw not_finite(where, x);
}

// `what` names the reals one by one: what(i) for the 0-based index i.
template <class Name> void require_finite(const std::vector<double>& xs, const Name& what) {
  for (std::size_t i = 0; i < xs.size(); ++i)
    require_finite(what(i), xs[i]);
}

// Throws the domain error for `name` applied to `args` when the point is outside its domain
// (the primitive table's message: "sqrt(-1): outside the domain (...)"); returns otherwise.
inline void require_in_domain(const std::string& name, const std::vector<double>& args) {
  const Primitive* p = primitives().find(name);
  if (!p || p->is_predicate() || p->arity() != args.size() || p->in_domain(args)) return;
  try {
    static_cast<void>(p->apply<double>(args));
  } catch (const model::Undefined& e) {
    throw AdsemError(ErrorKind::domain,
                     e.diagnostic().message +
                         "; the reduction is stuck there (no rule applies a primitive outside "
                         "its domain)");
  }
}

// A model value as `denote` prints it: model::to_string's shapes, with every unperturbed real in
// its shortest round-trip text (to_string writes 17 digits: 0.10000000000000001) and a
// non-finite real reported, wherever it sits (also beside a function, where no flattened value
// exists for the command to check).
inline std::string print_model_value(const model::Value<double>& v) {
  switch (v.kind()) {
  case model::ValueKind::real:
    if (!v.real().is_constant()) return model::to_string(v);
    require_finite("a real of the value", v.real().primal());
    return shortest_real_text(v.real().primal());
  case model::ValueKind::tuple: {
    std::string out = "(";
    for (std::size_t i = 0; i < v.items().size(); ++i)
      out += (i == 0 ? "" : ", ") + print_model_value(v.items()[i]);
    return out + ")";
  }
  case model::ValueKind::injection:
    return "in" + std::to_string(v.injection().index + 1) + " " +
           print_model_value(*v.injection().payload);
  default:
    return model::to_string(v);
  }
}

} // namespace adsem::props
