#include "semantics/simple_diff/rd.hpp"

namespace adsem::simple_diff {

Term rd_trace(Machine& m, const FunEnv& phi, const Node& rd, const Term& point,
              const Term& cotangent, const Value& point_value) {
  Term c;
  {
    // the binder x scopes over N only (spec P-17); it shadows any outer x while tracing
    ScopedEnv<Value>::Scope scope(m.rho());
    m.rho().push(rd.param(), point_value);
    c = m.sym(phi, rd.c);
  }
  if (m.is_stuck())
    return c; // N is stuck (clo_0, an op outside its domain): nothing to differentiate
  // x may occur in V or W (the outer x): differentiate() renames the binder apart (spec P-3)
  return m.differentiate(DiffGoal{cotangent, point, rd.param(), rd.type}, std::move(c));
}

} // namespace adsem::simple_diff
