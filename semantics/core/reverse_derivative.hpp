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

// The reals of one level, inside up to four (op_r and op_r_r of every binary entry): each level
// gathers its perturbed point and its results here, not in heap vectors per column.
template <class C> using ReverseReals = ArgumentBuffer<Dual<C>>;

// ev(op_r^order, x) with x = <a, w> flattened (order 0: the entry itself).
template <class C>
ReverseReals<C> reverse_results(const Primitive& primitive, int order, std::span<const Dual<C>> x,
                                const DiffContext& context) {
  if (order <= 0) {
    const Results<Dual<C>> y = primitive.results<Dual<C>>(x);
    return ReverseReals<C>(y.begin(), y.end());
  }
  const auto [in, out] = reverse_sizes(primitive, order - 1);
  if (x.size() != in + out)
    throw AdsemError(ErrorKind::eval, primitive.name() + ": the reverse derivative of order " +
                                          std::to_string(order) + " takes " +
                                          std::to_string(in + out) + " reals");
  ReverseReals<C> result;
  if (order == 1) { // the entry itself below: its inline results read directly
    const auto entry = [&primitive](std::span<const Dual<C>> a) {
      return primitive.results<Dual<C>>(a);
    };
    if (in == 0) { // no column to take: still apply the entry, for its domain check
      entry(x.subspan(0, 0));
      return result;
    }
    vjp_into<C>(entry, x.subspan(0, in), x.subspan(in, out), context, result);
    return result;
  }
  const auto lower = [&primitive, order, &context](std::span<const Dual<C>> a) {
    return reverse_results<C>(primitive, order - 1, a, context);
  };
  if (in == 0) {
    lower(x.subspan(0, 0));
    return result;
  }
  vjp_into<C>(lower, x.subspan(0, in), x.subspan(in, out), context, result);
  return result;
}

// The same as a vector.
template <class C>
std::vector<Dual<C>> apply_reverse(const Primitive& primitive, int order,
                                   std::span<const Dual<C>> x, const DiffContext& context) {
  const ReverseReals<C> y = reverse_results<C>(primitive, order, x, context);
  return std::vector<Dual<C>>(y.begin(), y.end());
}

// The same on plain doubles (throws model::Undefined outside the domain).
inline std::vector<double> apply_reverse(const Primitive& primitive, int order,
                                         std::span<const double> x) {
  const DiffContext context;
  const ReverseReals<double> in(x.begin(), x.end());
  const ReverseReals<double> y = reverse_results<double>(
      primitive, order, std::span<const Dual<double>>(in.data(), in.size()), context);
  std::vector<double> out;
  out.reserve(y.size());
  for (const Dual<double>& v : y)
    out.push_back(v.primal());
  return out;
}

} // namespace adsem::model
