#pragma once
// Ground values between the machine and the shared model (spec §5.3 reals(v), unflatten).
#include "semantics/core/value.hpp"
#include "semantics/delta_reverse/values.hpp"

namespace adsem::delta_reverse {

// A ground machine value (reals, integers, pairs, injections) as a model value.
model::Value<double> to_model(const Value& v);
// The same on any scalar C (reals become constant Dual<C>).
template <class C> model::Value<C> to_model_on(const Value& v) {
  using M = model::Value<C>;
  using VK = ValueNode::Kind;
  switch (v->kind) {
  case VK::real:
    return M(model::Dual<C>(C(v->real)));
  case VK::integer:
    return M::integer(v->integer);
  case VK::pair:
    return M::pair(to_model_on<C>(v->a), to_model_on<C>(v->b));
  case VK::inl:
    return M::injection(0, to_model_on<C>(v->a));
  case VK::inr:
    return M::injection(1, to_model_on<C>(v->a));
  default:
    throw AdsemError(ErrorKind::eval, "only ground values have a model point");
  }
}
// A ground model value as a machine value (perturbations dropped: tag-free parts).
Value from_model(const model::Value<double>& v);

} // namespace adsem::delta_reverse
