#pragma once
// The interpretation of seed 004 §5 (L281-293; spec §5.2) in the shared numeric model (spec §5.3),
// clause by clause, with environments in place of context morphisms. The one interesting clause,
// |T s| = 𝒯 ∘ |s| (L293), is model::pushforward: never this calculus's own T_x or reduction.
// Generic in the scalar C (double: points; Interval: boxes).
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "semantics/core/model_limits.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/pushforward.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

// |R| = ℝ, atomic types ℝ (spec §12.10), |σ×τ| = |σ|×|τ|, |σ→τ| = |σ|⇒|τ| (L283-285).
model::ModelType model_type(const Type& t);

// A persistent environment: x ↦ value, innermost binding first.
template <class C> struct EnvNode {
  std::string name;
  model::Value<C> value;
  std::shared_ptr<const EnvNode<C>> next;
};
template <class C> using Env = std::shared_ptr<const EnvNode<C>>;
template <class C> Env<C> extend(Env<C> env, std::string name, model::Value<C> value) {
  return std::make_shared<const EnvNode<C>>(EnvNode<C>{std::move(name), std::move(value), env});
}

// The values of closed subterms of ground type (no arrow in the type), kept by node across the
// denotations of one run of terms that share nodes (the terms of a reduction sequence share what a
// step did not touch). A ground value is data without closures, so it does not depend on the
// context's tag source, and a closed term's meaning does not read the environment (seed 004 §5,
// L281-293): the same node denotes the same value in every environment and every step.
// The nodes are held, so that an address is never reused while its entry lives.
class GroundValues {
public:
  struct Entry {
    SimpleP node;
    bool cacheable = false; // closed (and of ground type: may_keep)
    std::optional<model::Value<double>> value;
  };
  // Whether a node can have an entry that is kept: an application, projection or injection (the
  // other nodes cost nothing to denote or are never of ground type) of ground type. Checked before
  // the lookup, which is the cost of the cache.
  static bool may_keep(const Simple& node);
  Entry& entry(const SimpleP& node);

private:
  std::unordered_map<const Simple*, Entry> entries_;
};

struct DenoteContext {
  model::DiffContext diff = model::DiffContext();
  model::Limits limits = {}; // nesting and work (semantics/core/model_limits.hpp)
  // Null: every subterm is denoted afresh. Used by the scalar double only.
  std::shared_ptr<GroundValues> ground_values = nullptr;
};

template <class C>
model::Value<C> denote(const Term& m, const Env<C>& env, const DenoteContext& context);

template <class C>
model::Value<C> denote(const Simple& s, const Env<C>& env, const DenoteContext& context);

// ⟦s⟧, from the context's ground values when s is a closed subterm of ground type.
template <class C>
model::Value<C> denote(const SimpleP& s, const Env<C>& env, const DenoteContext& context) {
  if constexpr (std::is_same_v<C, double>) {
    if (context.ground_values && GroundValues::may_keep(*s)) {
      GroundValues::Entry& entry = context.ground_values->entry(s);
      if (entry.value) return *entry.value;
      if (entry.cacheable) {
        model::Value<C> v = denote<C>(*s, nullptr, context);
        // A value that carries perturbations (a model mutant's leaked tags) names tags of this
        // context's source: it is not kept.
        if (!model::has_perturbations(v)) entry.value = v;
        return v;
      }
    }
  }
  return denote<C>(*s, env, context);
}

template <class C>
model::Value<C> denote(const Simple& s, const Env<C>& env, const DenoteContext& context) {
  using V = model::Value<C>;
  const model::NodeVisit visit(context.limits);
  switch (s.kind) {
  case Kind::var: // |x| = π2, |y| = |y| ∘ π1
    for (const EnvNode<C>* at = env.get(); at != nullptr; at = at->next.get())
      if (at->name == s.name) return at->value;
    throw AdsemError(ErrorKind::eval, "denotation: unbound variable " + s.name);
  case Kind::lam: // |λx.s| = Λ(|s|)
    return V::function([body = s.operand, x = s.name, env, context](const V& v) {
      return denote<C>(body, extend<C>(env, x, v), context);
    });
  case Kind::app: // |s N| = ev ∘ ⟨|s|, |N|⟩
    return denote<C>(s.operand, env, context)(denote<C>(s.argument, env, context));
  case Kind::push: // |T s| = 𝒯 ∘ |s|  (L293)
    return model::pushforward(denote<C>(s.operand, env, context), context.diff);
  case Kind::inj: { // |ι1 s| = ⟨id, 0⟩ ∘ |s|, |ι2 s| = ⟨0, id⟩ ∘ |s|
    const V v = denote<C>(s.operand, env, context);
    const V other = model::zero<C>(model_type(component(s.type, 3 - s.index)));
    return s.index == 1 ? V::pair(v, other) : V::pair(other, v);
  }
  case Kind::proj: // |π_k s| = π_k ∘ |s|
    return denote<C>(s.operand, env, context).item(static_cast<std::size_t>(s.index - 1));
  case Kind::numeral: // [OURS]
    return V(model::Dual<C>(C(s.value)));
  case Kind::primitive: { // [OURS] the shared table's action on the scalar ring (spec §7)
    const Primitive& p = primitives().at(s.name);
    return V::function([&p](const V& argument) {
      const std::vector<model::Dual<C>> args = model::flatten(argument);
      return V(p.apply1<model::Dual<C>>(args));
    });
  }
  }
  throw AdsemError(ErrorKind::eval, "denotation: unknown node");
}

// |0| = 0, |s + N| = |s| + |N|
template <class C>
model::Value<C> denote(const Term& m, const Env<C>& env, const DenoteContext& context) {
  if (m.items.empty()) return model::zero<C>(model_type(m.type));
  model::Value<C> out = denote<C>(m.items.front(), env, context);
  for (std::size_t i = 1; i < m.items.size(); ++i)
    out = model::sum(out, denote<C>(m.items[i], env, context));
  return out;
}

} // namespace adsem::perturbative
