#pragma once
// Run-time values of the source and target languages (spec §4.1, §4.2) and the Delta data of
// the paper: Delta (L489-495: Zero | Scale | Add | Var | Let), Delta2 (L315-319: Zero | OneHot |
// Scale | Add) and the dense δS vectors of Drev1_S. Values are immutable and shared.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

struct DeltaNode;
using Delta = std::shared_ptr<const DeltaNode>;
struct DeltaNode {
  enum class Kind { zero, scale, add, var, let, onehot };
  Kind kind = Kind::zero;
  double r = 0.0;      // scale
  std::int64_t id = 0; // var, let (the bound id), onehot (the index)
  Delta a, b;          // scale: a; add: a, b; let: a = rhs, b = body
};
Delta d_zero();
Delta d_scale(double r, Delta u);
Delta d_add(Delta u1, Delta u2);
Delta d_var(std::int64_t id);
Delta d_let(std::int64_t id, Delta rhs, Delta body);
Delta d_onehot(std::int64_t i);
std::size_t delta_nodes(const Delta& u);
// Spec §2.2 tape notation: "Add(Scale(4.0, Var 1), Scale(3.0, Var 2))".
std::string print_delta(const Delta& u);

struct ValueNode;
using Value = std::shared_ptr<const ValueNode>;

struct EnvNode;
using Env = std::shared_ptr<const EnvNode>;
struct EnvNode {
  std::string name;
  Value value;
  Env next;
};
Env extend(Env env, std::string name, Value v);

struct ValueNode {
  enum class Kind {
    real,
    integer,
    pair,
    inl,
    inr,
    closure,
    prim,
    comp,
    delta,
    dense,
    vector,
    array_op
  };
  Kind kind = Kind::real;
  double real = 0.0;
  std::int64_t integer = 0; // integers and DeltaIds
  Value a, b;               // pair: a, b; inl/inr: a
  Env env;                  // closure, comp
  std::string name;         // closure parameter; prim name; array_op: index, build or sumV
  Term body;   // closure body; comp: the computation term (pure/bind/deltaLet); sumV: the constant
  Delta delta; // Delta and Delta2 values
  std::shared_ptr<const std::vector<double>> dense;
  std::shared_ptr<const std::vector<Value>> items; // vector (§10.2), in index order
};

Value v_real(double r);
Value v_int(std::int64_t k);
Value v_pair(Value a, Value b);
Value v_inl(Value a);
Value v_inr(Value a);
Value v_closure(Env env, std::string x, Term body);
Value v_prim(std::string op);
Value v_comp(Env env, Term c);
Value v_delta(Delta d);
Value v_dense(std::vector<double> xs);
Value v_vector(std::vector<Value> items);
// index, build (§10.2) or sumV (spec §9.12, with its constant sumV[A]), a function value
Value v_array_op(std::string op, Term constant = nullptr);

// Surface syntax of a value of type t (sums print their other summand; functions <function>).
std::string print_value(const Value& v, const Type& t);
// The reals of a ground value, left to right (spec §5.3 reals(v)).
void flatten_reals(const Value& v, std::vector<double>& out);
std::vector<double> flatten_reals(const Value& v);
// Is v a value of type t? Closures and computations are accepted at arrow/monad types by their
// kind only (spec §6 P1: closure values are typed through their environment).
bool has_type(const Value& v, const Type& t);
// A value of first-order type t shaped like `shape`, with its reals taken from xs.
Value unflatten_reals(const Value& shape, const std::vector<double>& xs, std::size_t& next);
// Bitwise equality of ground values (reals compared as bit patterns).
bool same_bits(const Value& a, const Value& b);
// The same Delta term, Scale coefficients compared as bit patterns.
bool same_delta(const Delta& a, const Delta& b);

} // namespace adsem::delta_reverse
