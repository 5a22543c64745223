#include "semantics/delta_reverse/model_bridge.hpp"

namespace adsem::delta_reverse {

model::Value<double> to_model(const Value& v) {
  using M = model::Value<double>;
  using VK = ValueNode::Kind;
  switch (v->kind) {
  case VK::real:
    return M(v->real);
  case VK::integer:
    return M::integer(v->integer);
  case VK::pair:
    return M::pair(to_model(v->a), to_model(v->b));
  case VK::inl:
    return M::injection(0, to_model(v->a));
  case VK::inr:
    return M::injection(1, to_model(v->a));
  default:
    throw AdsemError(ErrorKind::eval, "only ground values have a model point");
  }
}

Value from_model(const model::Value<double>& v) {
  using MK = model::ValueKind;
  switch (v.kind()) {
  case MK::real:
    return v_real(v.real().primal());
  case MK::integer:
    return v_int(v.integer());
  case MK::tuple: {
    const auto& items = v.items();
    if (items.size() != 2) throw AdsemError(ErrorKind::eval, "model tuple is not a pair");
    return v_pair(from_model(items[0]), from_model(items[1]));
  }
  case MK::injection:
    return v.injection().index == 0 ? v_inl(from_model(*v.injection().payload))
                                    : v_inr(from_model(*v.injection().payload));
  default:
    throw AdsemError(ErrorKind::eval, "only ground model values convert");
  }
}

} // namespace adsem::delta_reverse
