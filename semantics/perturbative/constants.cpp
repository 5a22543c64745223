#include "semantics/perturbative/constants.hpp"

#include "semantics/core/primitives.hpp"
#include "semantics/perturbative/templates.hpp"

namespace adsem::perturbative {

const std::vector<std::string>& constant_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, source] : template_sources())
      out.push_back(name);
    return out;
  }();
  return names;
}

const ConstantTypes& constant_types() {
  static const ConstantTypes types = [](const std::string& name) -> std::optional<Type> {
    if (!template_sources().count(name)) return std::nullopt;
    const Primitive& p = primitives().at(name);
    if (p.arity() == 1) return arrow_type(real_type(), real_type());
    return arrow_type(product_type(real_type(), real_type()), real_type());
  };
  return types;
}

} // namespace adsem::perturbative
