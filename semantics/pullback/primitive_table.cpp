#include "semantics/pullback/primitive_table.hpp"

#include "semantics/core/jacobian.hpp"
#include "semantics/core/primitives.hpp"

namespace adsem::pullback {

namespace {
std::optional<PrimitiveInfo> lookup(const std::string& name) {
  const Primitive* p = primitives().find(name);
  if (p == nullptr || p->is_predicate()) return std::nullopt;
  return PrimitiveInfo{p->name(), arrow(real_power(p->arity()), real_power(p->coarity()))};
}
} // namespace

Signature signature() {
  return lookup;
}

Term make_prim(const std::string& f, Term argument) {
  const auto info = lookup(f);
  if (!info) throw std::out_of_range("unknown primitive " + f);
  return prim(info->name, info->signature, std::move(argument));
}
Term make_jac(const std::string& f, Term direction) {
  const auto info = lookup(f);
  if (!info) throw std::out_of_range("unknown primitive " + f);
  return jac(info->name, info->signature, std::move(direction));
}

std::vector<double> prim_value(const std::string& f, const std::vector<double>& x) {
  return primitives().at(f).apply<double>(x);
}

Eigen::MatrixXd prim_jacobian(const std::string& f, const std::vector<double>& x) {
  const Primitive& p = primitives().at(f);
  const Eigen::VectorXd point =
      Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size()));
  return model::jacobian(primitive_function<model::Dual<double>>(p), point);
}

Term parse(const std::string& source, const std::map<std::string, Type>& free) {
  ParseOptions options;
  options.signature = signature();
  options.free = free;
  return parse_term(source, options);
}

} // namespace adsem::pullback
