#include "semantics/pullback/primitive_table.hpp"

#include <array>

#include "semantics/core/jacobian.hpp"
#include "semantics/core/primitives.hpp"

namespace adsem::pullback {

namespace {
// R^arity ⇒ R^coarity. [perf] The small signatures (every entry of the standard table) are made
// once and shared (types are immutable): each f̲ and 𝒥f̲ node made, by the generators and the
// parser, built its signature's two or three type nodes again.
Type signature_of(std::size_t arity, std::size_t coarity) {
  constexpr std::size_t shared = 4;
  static const auto table = [] {
    std::array<std::array<Type, shared>, shared> t;
    for (std::size_t n = 0; n < shared; ++n)
      for (std::size_t m = 0; m < shared; ++m)
        t[n][m] = arrow(real_power(n), real_power(m));
    return t;
  }();
  if (arity < shared && coarity < shared) return table[arity][coarity];
  return arrow(real_power(arity), real_power(coarity));
}

std::optional<PrimitiveInfo> lookup(const std::string& name) {
  const Primitive* p = primitives().find(name);
  if (p == nullptr || p->is_predicate()) return std::nullopt;
  return PrimitiveInfo{p->name(), signature_of(p->arity(), p->coarity())};
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

// [perf] model::jacobian's steps (a fresh tag per column, the point perturbed by perturb_column,
// the ε-coefficient of each result) with the entry applied in place: through a VectorFunction each
// column made a std::function call and three heap vectors, most of each 5/5⁺ transpose of a
// primitive (seed 000 §3.4 L363) on small chains.
Eigen::MatrixXd prim_jacobian(const std::string& f, const std::vector<double>& x) {
  using D = model::Dual<double>;
  const Primitive& p = primitives().at(f);
  const model::DiffContext context;
  const ArgumentBuffer<D> point(x.begin(), x.end());
  const std::span<const D> at(point.data(), point.size());
  if (x.empty()) return Eigen::MatrixXd(static_cast<Eigen::Index>(p.results<D>(at).size()), 0);
  Eigen::MatrixXd out;
  ArgumentBuffer<D> perturbed;
  for (std::size_t j = 0; j < x.size(); ++j) {
    const model::Tag e = context.fresh_tag();
    perturbed.clear();
    model::perturb_column<double>(at, j, e, perturbed);
    const Results<D> ys = p.results<D>(Args<D>(perturbed.data(), perturbed.size()));
    if (j == 0)
      out.resize(static_cast<Eigen::Index>(ys.size()), static_cast<Eigen::Index>(x.size()));
    for (std::size_t i = 0; i < ys.size(); ++i)
      out(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
          tangent_part(ys[i], e).primal();
  }
  return out;
}

Term parse(const std::string& source, const std::map<std::string, Type>& free) {
  ParseOptions options;
  options.signature = signature();
  options.free = free;
  return parse_term(source, options);
}

} // namespace adsem::pullback
