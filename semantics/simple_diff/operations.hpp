#pragma once
// The operation and predicate symbols of simple-diff, read from the shared primitive table
// (semantics/core/primitives.hpp; design.md "Primitives: one table"). Nothing here computes a
// primitive: ev(op, V) is the table entry's one generic definition, and ev(op_r^k, <a, w>) is the
// model's reverse derivative of that definition (semantics/core/reverse_derivative.hpp), with
// Dom(op_r^k) = Dom(op) × R^... exactly (seed 003 lines 233-241; spec §2.4, §7 A1-A5).
//
// The operations are the entries the spec's table names (§7.2: add sub mul div neg recip exp log
// sqrt sin cos tanh, and DProd_n of line 235); the shared table's other entries (relu, step,
// sigma, dsigma, sq, Mak–Ong's g) are left out, so that their names stay free for user functions
// (the paper's E3 defines its own relu). simple-diff types: an entry with n arguments and m
// results is real^n → real^m, except DProd_n : real^n × real^n → real: the table's dot2 (aliases
// dprod2, dprod_2, DProd_2), and dprod1, dprod3 ... dprod16 added with dot_product_primitive.
// Predicates (less, gt, pos) are partial: undefined on their boundary (line 152; spec §7.2).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "semantics/core/primitives.hpp"
#include "syntax/simple_diff/signature.hpp"

namespace adsem::simple_diff::ops {

// op_r^order of a base entry: op_r : T × U → T for op : T → U (Op is closed under (-)_r).
struct Operation {
  const Primitive* base = nullptr;
  int order = 0;
  std::string name() const;            // "mul_r_r"
  std::pair<Type, Type> arity() const; // (T, U) of op_r^order : T → U
  // U alone, without building T (every ev and every [[op(M)]] shapes its result by it):
  // real^m for op : real^n → real^m, and the domain of op_r^(order-1) for op_r^order.
  Type codomain() const;
};

// "mul", "mult_r", "dprod3_r_r", ... (nullopt for an unknown symbol).
std::optional<Operation> find_operation(std::string_view name);
// "less", "lt", "gt", "pos" (nullptr for an unknown symbol).
const Primitive* find_predicate(std::string_view name);
Type predicate_domain(const Primitive& predicate);

// ev(op, V) on the flattened argument; AdsemError(domain) outside Dom(op) × R^... (seed 003
// line 233: partial, spec §11.6).
std::vector<double> apply(const Operation& op, std::span<const double> x);
// The AdsemError(domain) that apply throws outside Dom(op), returned rather than thrown, for op
// itself (order 0) given its arity's reals; nullopt otherwise (op_r^k checks the domain at its
// first column's perturbed point, whose text the message shows: apply reports it).
std::optional<AdsemError> domain_error(const Operation& op, std::span<const double> x);
// bev(pred, V); AdsemError(domain) on the boundary (the partial comparison has no value there).
bool holds(const Primitive& predicate, std::span<const double> x);

// The table as the parser and type checker see it.
const Signature& signature();

} // namespace adsem::simple_diff::ops
