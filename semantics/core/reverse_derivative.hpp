#pragma once
// The reverse derivatives op_r, op_r_r, ... of a primitive-table entry (abadi-plotkin spec §2.4
// and §7.2 "Implementing the closure (A4)"; seed 003 lines 233-241):
//
//   op_r : T × U → T,   ev(op_r, <a, w>) = J_a(op)^T w,   Dom(op_r) = Dom(op) × R^|U|,
//
// and op_r^k = (op_r^(k-1))_r, so the set of operations is closed under (-)_r. Each level is the
// model's vjp_dual (one fresh tag per input coordinate) of the level below, so every op_r^k comes
// from the entry's one generic definition; nothing is differentiated by hand. The domain is checked
// when the base entry itself is applied, on the tag-free part: exactly Dom(op) × R^....
// On Dual<C> inputs the outer perturbations are kept (nested derivatives of op_r terms).
#include "semantics/core/dual.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/tags.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace adsem::model {

// (|dom|, |cod|) of op_r^order: (n, m) becomes (n + m, n) with each (-)_r (seed 003 line 237).
inline std::pair<std::size_t, std::size_t> reverse_sizes(const Primitive& primitive, int order) {
  std::size_t in = primitive.arity(), out = primitive.coarity();
  for (int i = 0; i < order; ++i) {
    const std::size_t next_in = in + out;
    out = in;
    in = next_in;
  }
  return {in, out};
}

// ev(op_r^order, x) with x = <a, w> flattened (order 0: the entry itself).
template <class C>
std::vector<Dual<C>> apply_reverse(const Primitive& primitive, int order,
                                   std::span<const Dual<C>> x, const DiffContext& context) {
  if (order <= 0) return primitive.apply<Dual<C>>(x);
  const auto [in, out] = reverse_sizes(primitive, order - 1);
  if (x.size() != in + out)
    throw AdsemError(ErrorKind::eval, primitive.name() + ": the reverse derivative of order " +
                                          std::to_string(order) + " takes " +
                                          std::to_string(in + out) + " reals");
  const auto lower = [&primitive, order, &context](std::span<const Dual<C>> a) {
    return apply_reverse<C>(primitive, order - 1, a, context);
  };
  if (in == 0) { // no column to take: still apply the entry, for its domain check
    lower(x.subspan(0, 0));
    return {};
  }
  return vjp_dual<C>(lower, x.subspan(0, in), x.subspan(in, out), context);
}

// The same on plain doubles (throws model::Undefined outside the domain).
inline std::vector<double> apply_reverse(const Primitive& primitive, int order,
                                         std::span<const double> x) {
  const DiffContext context;
  const std::vector<Dual<double>> in(x.begin(), x.end());
  std::vector<double> out;
  for (const Dual<double>& y :
       apply_reverse<double>(primitive, order, std::span<const Dual<double>>(in), context))
    out.push_back(y.primal());
  return out;
}

} // namespace adsem::model
