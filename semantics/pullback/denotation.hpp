#pragma once
// The interpretation of seed 000 §4.2 (L448-458, App. C L785-802; spec §5.2) in the shared
// numeric model (spec §5.3, ID-14), clause by clause. The derivative D[·] is the model's own
// (tagged dual numbers with tag renaming, semantics/core/pushforward.hpp): this file never calls
// the calculus's reduction or its rules. Generic in the scalar C (double: points; Interval: boxes).
//   ⟦σ*⟧ = linear functionals: covectors c (u ↦ c·flat(u)) or opaque functionals (closures)
//   ⟦𝒥f̲·S⟧ = x ↦ 𝒥(f)(x)·⟦S⟧                    ⟦r̲*⟧ = v ↦ Σ rᵢvᵢ
//   ⟦(λx.S₁)*·S₂⟧ = v ↦ ⟦S₂⟧(⟦S₁⟧⟨γ,v⟩)            ⟦(Ω λx.P)·S⟧ = x ↦ v ↦ ⟦S⟧(F x)(DF(x)·v)
#include <memory>
#include <string>
#include <type_traits>

#include "semantics/core/environment.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/linear_maps.hpp"
#include "semantics/core/model_limits.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/pushforward.hpp"
#include "semantics/pullback/closed_values.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/stage_derivative.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// ⟦R⟧ = ℝ, ⟦σ×τ⟧ = ⟦σ⟧×⟦τ⟧, ⟦σ⇒τ⟧ = functions, ⟦σ*⟧ = functions σ → ℝ (the linear ones).
model::ModelType model_type(const Type& t);

template <class C> using Env = model::Env<C>;
using model::extend;

struct DenoteContext {
  model::DiffContext diff = model::DiffContext();
  model::Limits limits = {}; // nesting and work (semantics/core/model_limits.hpp)
  // Null: every subterm is denoted afresh. Otherwise closed subterms' values are kept there (the
  // scalar double only); it must outlive every value denoted with this context, and every
  // denotation that reads it shares this context's tag source (closed_values.hpp).
  ClosedValues* closed_values = nullptr;
  // Null: every stage derivative checks its whole point and direction. Otherwise the pair checked
  // last is not walked again (stage_derivative.hpp); it must outlive the denotations that use it.
  CheckedShapes* checked_shapes = nullptr;
};

// A ground value of a Euclidean type from flat reals, and back.
template <class C>
model::Value<C> ground(const Type& t, std::span<const model::Dual<C>> xs, std::size_t& next) {
  if (is_prod(t)) {
    model::Value<C> a = ground<C>(t->left, xs, next); // left first: the reals' order
    model::Value<C> b = ground<C>(t->right, xs, next);
    return model::Value<C>::pair(std::move(a), std::move(b));
  }
  return model::Value<C>(xs[next++]);
}

template <class C>
model::Value<C> denote_node(const Term& t, const Env<C>& env, const DenoteContext& context);

// f̲ applied to the reals of its argument's value. Its own frame (not inlined into denote_node):
// the arguments' inline room would enlarge every level of the recursive walk.
template <class C>
[[gnu::noinline]] model::Value<C> apply_primitive(const Term& t, const model::Value<C>& argument) {
  using D = model::Dual<C>;
  ArgumentBuffer<D> xs;
  model::flatten_into(argument, xs);
  const Results<D> ys = primitives().at(t->name).results<D>(Args<D>(xs.data(), xs.size()));
  std::size_t next = 0;
  return ground<C>(t->type->right, std::span<const D>(ys.data(), ys.size()), next);
}

inline std::size_t item_of(const Term& projection) {
  return static_cast<std::size_t>(projection->index - 1);
}

// ⟦a⟧γ of an atom a = x_p (spec §2.5 ID-1) as a reference into γ's value of x. [perf] The stage
// tuples of rule 8 (seed 000 Fig. 3 L240) are read by paths w.1.2: denoting each step copied
// the tuple below it only to take one item. A node of the path costs what denote_node's visit
// costs (one unit of work, one level of nesting); an atom is never closed, so no closed value
// is skipped.
template <class C>
const model::Value<C>& atom_value(const Term& a, const Env<C>& env, const DenoteContext& context) {
  const model::NodeVisit visit(context.limits);
  if (a->kind == Kind::proj) return atom_value<C>(a->kids[0], env, context).item(item_of(a));
  if (const model::Value<C>* v = model::lookup<C>(env, a->name)) return *v;
  throw AdsemError(ErrorKind::eval, "denotation: unbound variable " + a->name, a->pos);
}

// ⟦t⟧γ, from the context's closed values when t is closed.
template <class C>
model::Value<C> denote(const Term& t, const Env<C>& env, const DenoteContext& context) {
  if constexpr (std::is_same_v<C, double>) {
    if (context.closed_values && ClosedValues::may_keep(t)) {
      if (const model::Value<C>* v = context.closed_values->find(t)) return *v;
      return context.closed_values->keep(t, denote_node<C>(t, nullptr, context));
    }
  }
  return denote_node<C>(t, env, context);
}

template <class C>
model::Value<C> denote_node(const Term& t, const Env<C>& env, const DenoteContext& context) {
  using V = model::Value<C>;
  using D = model::Dual<C>;
  const model::NodeVisit visit(context.limits);
  switch (t->kind) {
  case Kind::var:
    if (const V* v = model::lookup<C>(env, t->name)) return *v;
    throw AdsemError(ErrorKind::eval, "denotation: unbound variable " + t->name, t->pos);
  case Kind::lam: // ⟦λx.S⟧ = cur(⟦S⟧)
    return V::function([body = t->kids[0], x = t->name, env, context](const V& a) {
      return denote<C>(body, extend<C>(env, x, a), context);
    });
  case Kind::app:
    return denote<C>(t->kids[0], env, context)(denote<C>(t->kids[1], env, context));
  case Kind::proj:
    if (is_atom(t)) return atom_value<C>(t->kids[0], env, context).item(item_of(t));
    return denote<C>(t->kids[0], env, context).item(item_of(t));
  case Kind::pair:
    return V::pair(denote<C>(t->kids[0], env, context), denote<C>(t->kids[1], env, context));
  case Kind::num:
    return V(D(C(t->value)));
  case Kind::prim: // ⟦f̲(P)⟧ = f ∘ ⟦P⟧
    return apply_primitive<C>(t, denote<C>(t->kids[0], env, context));
  case Kind::jac: { // ⟦𝒥f̲·S⟧ = x ↦ D[f]⟨⟦S⟧, x⟩ = 𝒥(f)(x)·s, by the model's tagged duals
    const Primitive& p = primitives().at(t->name);
    const std::vector<D> s = model::flatten(denote<C>(t->kids[0], env, context));
    return V::function([&p, s, cod = t->type->right, context](const V& x) {
      ArgumentBuffer<D> xs;
      model::flatten_into(x, xs);
      const Results<D> ys = model::primitive_jvp<C>(p, std::span<const D>(xs.data(), xs.size()),
                                                    std::span<const D>(s), context.diff);
      std::size_t next = 0;
      return ground<C>(cod, std::span<const D>(ys.data(), ys.size()), next);
    });
  }
  case Kind::covec: { // ⟦r̲*⟧ = v ↦ Σ rᵢ vᵢ
    const std::vector<double> r = t->vec.dense();
    const Eigen::VectorXd c =
        Eigen::Map<const Eigen::VectorXd>(r.data(), static_cast<Eigen::Index>(r.size()));
    return model::covector<C>(c);
  }
  case Kind::dualmap: { // ⟦(λx.S₁)*·S₂⟧ = ⟦S₂⟧ ∘ ⟦λx.S₁⟧
    const V functional = denote<C>(t->kids[1], env, context);
    return V::function([body = t->kids[0], x = t->name, env, functional, context](const V& v) {
      return functional(denote<C>(body, extend<C>(env, x, v), context));
    });
  }
  case Kind::pullback: { // Ω(F)(ω)(x) = v ↦ ω(F x)(DF(x)·v)
    const V omega = denote<C>(t->kids[1], env, context);
    const V f = V::function([body = t->kids[0], x = t->name, env, context](const V& a) {
      return denote<C>(body, extend<C>(env, x, a), context);
    });
    if constexpr (std::is_same_v<C, double>) {
      // DF(x)·v perturbing only what a stage reads (stage_derivative.hpp)
      if (auto shape = stage_shape(t->kids[0], t->name))
        return V::function([f, omega, shape = std::move(shape), env, context](const V& point) {
          const V image = f(point);
          const V covector = omega(image);
          return V::function([shape, env, point, covector, context](const V& v) {
            return covector(stage_derivative(*shape, env, point, v, context));
          });
        });
    }
    return V::function([f, omega, context](const V& point) {
      const V image = f(point);
      const V covector = omega(image);
      return V::function([f, point, covector, context](const V& v) {
        return covector(model::directional_derivative(f, point, v, context.diff));
      });
    });
  }
  case Kind::sum: {
    V out = denote<C>(t->kids[0], env, context);
    for (std::size_t i = 1; i < t->kids.size(); ++i)
      out = model::sum(out, denote<C>(t->kids[i], env, context));
    return out;
  }
  case Kind::zero:
    if (is_any(t->type))
      throw AdsemError(ErrorKind::eval, "denotation: 'zero' of unknown type (annotate it)", t->pos);
    return model::zero<C>(model_type(t->type));
  case Kind::let: // ⟦let x = M in N⟧ = ⟦N⟧⟨γ, ⟦M⟧⟩
    return denote<C>(t->kids[1], extend<C>(env, t->name, denote<C>(t->kids[0], env, context)),
                     context);
  }
  throw AdsemError(ErrorKind::eval, "denotation: unknown node");
}

} // namespace adsem::pullback
