#pragma once
// The set-theoretic semantics of App. A.2 (L1029-1049; spec §5.1) in the shared numeric model
// (design.md "The numeric model"), clause by clause, generic in the scalar C (double: points;
// Interval: boxes). It never calls this calculus's translations, machine or eval: derivatives of
// the denotation come from the model (model::jacobian, finite differences, intervals).
#include <memory>
#include <string>

#include "semantics/core/model_limits.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/value.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

// ⟦R⟧ = ℝ, ⟦Z⟧ = ℤ (model integer), ⟦A×B⟧ = pair, ⟦A+B⟧ = tagged sum, ⟦A→B⟧ = functions.
model::ModelType model_type(const Type& t);

template <class C> struct DenEnvNode {
  std::string name;
  model::Value<C> value;
  std::shared_ptr<const DenEnvNode<C>> next;
};
template <class C> using DenEnv = std::shared_ptr<const DenEnvNode<C>>;

struct DenoteContext {
  model::Limits limits = {}; // nesting and work (semantics/core/model_limits.hpp)
};

namespace denotation_detail {
template <class C> model::Value<C> boolean(bool b) {
  return model::Value<C>::injection(b ? 0 : 1, model::Value<C>::integer(0));
}
template <class C> model::Value<C> prim_meaning(const std::string& op) {
  using V = model::Value<C>;
  using D = model::Dual<C>;
  if (op == "fromInt")
    return V::function([](const V& n) { return V(D(C(static_cast<double>(n.integer())))); });
  if (op == "ltR")
    return V::function(
        [](const V& a) { return boolean<C>(primitives().at("less").holds<D>(model::flatten(a))); });
  if (op == "addZ" || op == "subZ" || op == "mulZ" || op == "eqZ" || op == "ltZ")
    return V::function([op](const V& a) {
      const std::int64_t x = a.first().integer(), y = a.second().integer();
      if (op == "eqZ") return boolean<C>(x == y);
      if (op == "ltZ") return boolean<C>(x < y);
      std::int64_t r = 0;
      const bool overflow = op == "addZ"   ? __builtin_add_overflow(x, y, &r)
                            : op == "subZ" ? __builtin_sub_overflow(x, y, &r)
                                           : __builtin_mul_overflow(x, y, &r);
      if (overflow) throw AdsemError(ErrorKind::domain, op + ": integer overflow");
      return V::integer(r);
    });
  // ⟦+R⟧(x, y) = x + y, ...: the shared table's one generic definition
  const Primitive& p = primitives().at(op);
  return V::function([&p](const V& a) { return V(p.apply1<D>(model::flatten(a))); });
}
} // namespace denotation_detail

template <class C>
model::Value<C> denote(const Term& t, const DenEnv<C>& env, const DenoteContext& context) {
  using V = model::Value<C>;
  const model::NodeVisit visit(context.limits, t->pos);
  const Node& n = *t;
  switch (n.kind) {
  case Kind::var: // ⟦x⟧γ = γ(x)
    for (const DenEnvNode<C>* at = env.get(); at != nullptr; at = at->next.get())
      if (at->name == n.name) return at->value;
    throw AdsemError(ErrorKind::eval, "denotation: unbound variable " + n.name, n.pos);
  case Kind::lam: // ⟦λx.e⟧γ = v ↦ ⟦e⟧(γ, x↦v)
    return V::function([body = n.kids[0], x = n.name, env, context](const V& v) {
      return denote<C>(body, std::make_shared<const DenEnvNode<C>>(DenEnvNode<C>{x, v, env}),
                       context);
    });
  case Kind::app: { // ⟦e1 e2⟧γ = (⟦e1⟧γ)(⟦e2⟧γ)
    const V f = denote<C>(n.kids[0], env, context);
    return f(denote<C>(n.kids[1], env, context));
  }
  case Kind::let: // ⟦let x = e1 in e2⟧γ = ⟦e2⟧(γ, x↦⟦e1⟧γ)
    return denote<C>(n.kids[1],
                     std::make_shared<const DenEnvNode<C>>(
                         DenEnvNode<C>{n.name, denote<C>(n.kids[0], env, context), env}),
                     context);
  case Kind::pair: {
    V a = denote<C>(n.kids[0], env, context);
    return V::pair(std::move(a), denote<C>(n.kids[1], env, context));
  }
  case Kind::fst:
    return denote<C>(n.kids[0], env, context).first();
  case Kind::snd:
    return denote<C>(n.kids[0], env, context).second();
  case Kind::inl:
    return V::injection(0, denote<C>(n.kids[0], env, context));
  case Kind::inr:
    return V::injection(1, denote<C>(n.kids[0], env, context));
  case Kind::case_: {
    const V v = denote<C>(n.kids[0], env, context);
    const auto& inj = v.injection();
    const bool left = inj.index == 0;
    return denote<C>(n.kids[left ? 1 : 2],
                     std::make_shared<const DenEnvNode<C>>(
                         DenEnvNode<C>{left ? n.name : n.name2, *inj.payload, env}),
                     context);
  }
  case Kind::real: // ⟦r⟧ = r
    return V(model::Dual<C>(C(n.real)));
  case Kind::integer:
    return V::integer(n.integer);
  case Kind::prim:
    return denotation_detail::prim_meaning<C>(n.name);
  case Kind::index: // ⟦index⟧(v, i) = v_i, ⟦Vector A⟧ = finite sequences (§10.2)
    return V::function([pos = n.pos](const V& a) -> V {
      const auto items = a.first().items();
      const std::int64_t i = a.second().integer();
      if (i < 0 || i >= static_cast<std::int64_t>(items.size()))
        throw AdsemError(ErrorKind::domain,
                         "index: " + std::to_string(i) + " is outside a vector of length " +
                             std::to_string(items.size()),
                         pos);
      return items[static_cast<std::size_t>(i)];
    });
  case Kind::build: // ⟦build⟧(n, f) = (f 0, ..., f (n-1))
    return V::function([context, pos = n.pos](const V& a) {
      const std::int64_t length = a.first().integer();
      if (length < 0)
        throw AdsemError(ErrorKind::domain, "build: negative length " + std::to_string(length),
                         pos);
      std::vector<V> items;
      for (std::int64_t i = 0; i < length; ++i) {
        const model::NodeVisit visit(context.limits, pos); // bounded like a term's nodes
        items.push_back(a.second()(V::integer(i)));
      }
      return V::tuple(std::move(items));
    });
  case Kind::sum_v: // ⟦sumV⟧(v) = (...(v_0 + v_1) + ...) + v_(n-1), 0 for n = 0 (spec §9.12)
    if (n.type->kind != TypeNode::Kind::real) break; // sumV[A] of the translations' targets
    return V::function([](const V& v) {
      const auto items = v.items();
      if (items.empty()) return V(model::Dual<C>(C(0.0)));
      model::Dual<C> sum = items.front().real();
      for (std::size_t i = 1; i < items.size(); ++i)
        sum = sum + items[i].real();
      return V(sum);
    });
  default:
    break;
  }
  throw AdsemError(ErrorKind::eval, "denotation: source terms only (elaborated)", n.pos);
}

template <class C> model::Value<C> denote_closed(const Term& t) {
  return denote<C>(t, nullptr, DenoteContext());
}

} // namespace adsem::delta_reverse
