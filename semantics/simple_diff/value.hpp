#pragma once
// Closed values V ::= r | * | <V, W> (seed 003 lines 223-231) as results of ordinary
// evaluation, with their unique types T_V, the flattening of Lemma 5.1 (lines 809-813), and the
// conversion back to value terms (for traces and printing).
#include <memory>
#include <string>
#include <vector>

#include "syntax/simple_diff/ast.hpp"

namespace adsem::simple_diff {

class Value {
public:
  enum class Kind { real, unit, pair };
  static Value real(double r);
  static Value unit();
  static Value pair(Value first, Value second);

  Kind kind() const { return kind_; }
  double as_real() const { return real_; }
  // Projections of a pair; on any other value (an ill-typed run, e.g. under a mutant that
  // resolves a function name wrongly) an evaluation error, never a crash.
  const Value& first() const { return as_pair().first; }
  const Value& second() const { return as_pair().second; }

private:
  const std::pair<Value, Value>& as_pair() const {
    if (!pair_) throw AdsemError(ErrorKind::eval, "a projection of a value that is not a pair");
    return *pair_;
  }

  Kind kind_ = Kind::unit;
  double real_ = 0.0;
  std::shared_ptr<const std::pair<Value, Value>> pair_;
};

// T_V, the unique type of a closed value.
Type type_of_value(const Value& v);
// Depth-first, left first (spec P-13): <1, <*, 2>> ↦ (1, 2).
std::vector<double> flatten(const Value& v);
// The same reals appended to `out` (a container with push_back: an inline buffer spares the heap
// vector where a few reals are read at once, as ev reads an operation's argument).
template <class Out> void flatten_into(const Value& v, Out& out) {
  switch (v.kind()) {
  case Value::Kind::real:
    out.push_back(v.as_real());
    return;
  case Value::Kind::unit:
    return;
  case Value::Kind::pair:
    flatten_into(v.first(), out);
    flatten_into(v.second(), out);
    return;
  }
}
// The unique closed value of type T with these coordinates (Lemma 5.1); the vector must have
// |T| entries.
Value unflatten(const Type& t, const std::vector<double>& xs);
// The value as an (annotated) term.
Term value_term(const Value& v);
// Surface syntax: "<1, <(), 2>>".
std::string print_value(const Value& v);

} // namespace adsem::simple_diff
