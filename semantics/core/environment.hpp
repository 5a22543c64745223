#pragma once
// A persistent environment for denotations written once, generic in the scalar C: x ↦ value,
// innermost binding first (shared; a calculus's denotation extends it per binder in O(1)).
#include <memory>
#include <string>

#include "semantics/core/value.hpp"

namespace adsem::model {

template <class C> struct EnvNode {
  std::string name;
  Value<C> value;
  std::shared_ptr<const EnvNode<C>> next;
};
template <class C> using Env = std::shared_ptr<const EnvNode<C>>;

template <class C> Env<C> extend(Env<C> env, std::string name, Value<C> value) {
  return std::make_shared<const EnvNode<C>>(EnvNode<C>{std::move(name), std::move(value), env});
}

// The innermost binding of name, or nullptr.
template <class C> const Value<C>* lookup(const Env<C>& env, const std::string& name) {
  for (const EnvNode<C>* at = env.get(); at != nullptr; at = at->next.get())
    if (at->name == name) return &at->value;
  return nullptr;
}

} // namespace adsem::model
