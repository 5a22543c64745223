#pragma once
// The set-theoretic model of seed 002 §4.3 (Table 4, L782-841; spec §5) in the shared numeric
// model, generic in the scalar C (double: points; Interval: boxes; Dual: Jacobians). Following
// spec §5.3, a linear judgment Γ ⊢_z t is evaluated with z as an ordinary real variable, so
// ⟦λz^R.t⟧ is the function a ↦ ⟦t⟧(z := a) (linear by Table 4's remark L839, which the property
// `linearity` checks instead of assuming). It never calls this calculus's D or reduction.
#include <memory>
#include <string>

#include "semantics/core/model_limits.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/value.hpp"
#include "semantics/core/work_budget.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/nesting.hpp"

namespace adsem::linear_negation {

model::ModelType model_type(const Type& t); // ⟦R^⊥d⟧ = (R -> R^d)

template <class C> struct EnvNode {
  std::string name;
  model::Value<C> value;
  std::shared_ptr<const EnvNode<C>> next;
};
template <class C> using Env = std::shared_ptr<const EnvNode<C>>;
template <class C> Env<C> bind(Env<C> env, std::string name, model::Value<C> value) {
  return std::make_shared<const EnvNode<C>>(EnvNode<C>{std::move(name), std::move(value), env});
}

// One denotation's limits: the nesting guard (this calculus's own depth) and the models' work cap
// (semantics/core/model_limits.hpp: a term of size 60 of normal-forms-are-values took 80 s of CPU
// in ⟦−⟧ and was killed as a `timeout`). A property that denotes many terms in one trial shares
// one budget among them (step soundness denotes the term after each of up to 400 steps: each
// under the cap, together 12 s of CPU on one term of size 60, a `timeout` on the paper's own
// calculus).
struct DenoteBudget {
  DenoteBudget() = default;
  explicit DenoteBudget(long work_cap) : work(work_cap, 1) {}
  DepthBudget depth{max_nesting, 0, ErrorKind::eval};
  WorkBudget work{model::work_cap, 1};
};

template <class C>
model::Value<C> denote(const Term& t, const Env<C>& env,
                       std::shared_ptr<DenoteBudget> depth = nullptr) {
  using V = model::Value<C>;
  if (!depth) depth = std::make_shared<DenoteBudget>();
  const DepthGuard guard(depth->depth);
  depth->work.spend(1, "the denotation (⟦−⟧ of Table 4)");
  switch (t->kind) {
  case Kind::var: // ⟦x⟧g = g_x, (27) ⟦z⟧ = a ↦ a
    for (const EnvNode<C>* at = env.get(); at != nullptr; at = at->next.get())
      if (at->name == t->name) return at->value;
    throw AdsemError(ErrorKind::eval, "denotation: unbound variable " + t->name);
  case Kind::num: // ⟦r⟧ = r, (39) ⟦0⟧ = a ↦ 0
    return V(model::Dual<C>(C(t->value)));
  case Kind::lam: // ⟦λx.t⟧g = d ↦ ⟦t⟧(g, d); ⟦λz^R.t⟧g = the linear map a ↦ ⟦t⟧(g, z := a)
    return V::function([body = t->body(), x = t->x.name, env, depth](const V& v) {
      return denote<C>(body, bind<C>(env, x, v), depth);
    });
  case Kind::app: // ⟦t u⟧ = ⟦t⟧(⟦u⟧), (33) for linear application
    return denote<C>(t->left(), env, depth)(denote<C>(t->right(), env, depth));
  case Kind::pair: // (34)
    return V::pair(denote<C>(t->left(), env, depth), denote<C>(t->right(), env, depth));
  case Kind::add: // (40) in R^d
    return model::sum(denote<C>(t->left(), env, depth), denote<C>(t->right(), env, depth));
  case Kind::let: // (35), (36): a linear ES is composition, i.e. the same let
    return denote<C>(t->body(), bind<C>(env, t->x.name, denote<C>(t->bound(), env, depth)), depth);
  case Kind::let_pair: { // (37)
    const V u = denote<C>(t->bound(), env, depth);
    return denote<C>(t->body(), bind<C>(bind<C>(env, t->x.name, u.first()), t->y.name, u.second()),
                     depth);
  }
  case Kind::prim: { // ⟦f(t)⟧ = ⟦f⟧(⟦t1⟧, …), (38) for ·
    std::vector<model::Dual<C>> args;
    for (const Term& k : t->kids)
      args.push_back(denote<C>(k, env, depth).real());
    return V(primitives().at(t->name).template apply1<model::Dual<C>>(args));
  }
  }
  throw AdsemError(ErrorKind::eval, "denotation: unknown node");
}

} // namespace adsem::linear_negation
