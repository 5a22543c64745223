#include "semantics/dual_numbers/denote.hpp"

#include <algorithm>

#include "semantics/core/primitives.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::dual_numbers {

V denote(const Term& t, const Env& env) {
  switch (t->kind) {
  case Kind::var: {
    const auto it = std::find_if(env.rbegin(), env.rend(),
                                 [&](const auto& entry) { return entry.first == t->name; });
    if (it == env.rend()) throw AdsemError(ErrorKind::eval, "unbound " + t->name);
    return it->second;
  }
  case Kind::constant:
    return V(t->value);
  case Kind::op: {
    std::vector<model::Dual<double>> args{denote(t->a, env).real()};
    if (t->b) args.push_back(denote(t->b, env).real());
    return V(primitives().at(op_name(t->op)).apply1<model::Dual<double>>(args));
  }
  case Kind::lam:
    return V::function([t, env](const V& x) {
      Env inner = env;
      inner.emplace_back(t->name, x);
      return denote(t->a, inner);
    });
  case Kind::app:
    return denote(t->a, env)(denote(t->b, env));
  case Kind::pair:
    return V::pair(denote(t->a, env), denote(t->b, env));
  case Kind::proj:
    return denote(t->a, env).item(static_cast<std::size_t>(t->index - 1));
  }
  throw AdsemError(ErrorKind::internal, "denote: an unknown construct");
}

} // namespace adsem::dual_numbers
