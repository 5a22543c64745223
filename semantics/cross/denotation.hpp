#pragma once
// The shared model's meaning of a cross program (design.md "The numeric model"): reals are
// Dual<C> numbers, pairs tuples, λ closures, primitives the shared table's entries. Written once,
// generic in C: C = double gives the value and, through model::jacobian, the exact gradient;
// C = Interval encloses value and gradient over a box (and certifies the box inside every
// primitive's domain). It never looks at any calculus: it is the reference every mechanism is
// compared with.
#include <span>
#include <vector>

#include "semantics/core/environment.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/value.hpp"
#include "syntax/cross/program.hpp"

namespace adsem::cross {

template <class C> model::Value<C> denote(const Expr& e, const model::Env<C>& env) {
  using V = model::Value<C>;
  switch (e.kind) {
  case Expr::Kind::var:
    if (const V* v = model::lookup(env, e.name)) return *v;
    throw AdsemError(ErrorKind::eval, "model: unbound variable " + e.name);
  case Expr::Kind::lit:
    return V(e.value);
  case Expr::Kind::prim: {
    std::vector<model::Dual<C>> args;
    for (const Expr& a : e.args)
      args.push_back(denote(a, env).real());
    return V(primitives().at(e.name).apply1(args));
  }
  case Expr::Kind::pair:
    return V::pair(denote(e.args[0], env), denote(e.args[1], env));
  case Expr::Kind::fst:
    return denote(e.args[0], env).first();
  case Expr::Kind::snd:
    return denote(e.args[0], env).second();
  case Expr::Kind::let:
    return denote(e.args[1], model::extend(env, e.name, denote(e.args[0], env)));
  case Expr::Kind::lam:
    return V::function([name = e.name, body = e.args[0], env](const V& argument) {
      return denote(body, model::extend(env, name, argument));
    });
  case Expr::Kind::app:
    return denote(e.args[0], env)(denote(e.args[1], env));
  }
  throw AdsemError(ErrorKind::eval, "model: unknown construct");
}

// The program as a model function R^n -> R on Dual<C> numbers (for jacobian / enclose).
template <class C> model::VectorFunction<model::Dual<C>> as_function(const Program& p) {
  return [p](std::span<const model::Dual<C>> x) {
    model::Env<C> env;
    for (std::size_t i = 0; i < p.inputs.size(); ++i)
      env = model::extend(env, p.inputs[i], model::Value<C>(x[i]));
    return std::vector<model::Dual<C>>{denote(p.body, env).real()};
  };
}

} // namespace adsem::cross
