#pragma once
// Values of the numeric model (design.md "The numeric model"; manzyuk spec §5.3 "Values by type";
// abadi-plotkin §5.4; bmp §5.3; krawiec §5.3; mak-ong §5.3).
//
// Value<C> is one of
//   real       a Dual<C>: a real with its perturbations (C = double: a point; C = Interval: a box)
//   unit       ()
//   integer    a leaf integer (krawiec's Z); never perturbed
//   tuple      products, pairs, Tσ = (tangent, primal), real^n
//   injection  sums (krawiec's A + B)
//   function   a closure Value -> Value (shared, one allocation): λ, covectors and linear
//              maps (bmp's R^⊥d, mak-ong's σ*), compared by probing (probe.hpp)
// A calculus's denotation is written once, generic in C:
//   template <class C> Value<C> denote(const Term&, const Env<C>&, const DiffContext&);
// primitives are applied with Primitive::apply<Dual<C>>, guards with Primitive::holds<Dual<C>>,
// derivative constructs with pushforward.hpp / jacobian.hpp. C = double gives values and exact
// derivatives; C = Interval gives enclosures over a box.
//
// Values are immutable and cheap to copy (tuples, closures and injection payloads are shared).
#include "semantics/core/dual.hpp"
#include "syntax/core/diagnostic.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace adsem::model {

template <class C> class Value;

template <class C> using Function = std::function<Value<C>(const Value<C>&)>;

struct Unit {};
struct Integer {
  std::int64_t value = 0;
};
// Tuples and closures are held by pointer: a value is copied at every variable lookup and
// every capture, and copying a std::function or a vector of values dominated the model's time.
// A tuple's items and their count share one allocation (a shared vector took two: its header
// and its buffer; tuples are most of the model's allocations when pushforwards walk them).
template <class C> struct Tuple {
  std::shared_ptr<const Value<C>[]> items;
  std::size_t size = 0;
};
template <class C> struct Injection {
  std::size_t index = 0; // 0 = inl, 1 = inr, ...
  std::shared_ptr<const Value<C>> payload;
};
// A closure's code and captures in one shared allocation (a std::function inside a shared_ptr
// took two, and the model builds a closure per λ, per perturbed or extracted function, per sum).
template <class C> class Callable {
public:
  virtual ~Callable() = default;
  virtual Value<C> operator()(const Value<C>& argument) const = 0;
};
template <class C, class F> class CallableOf final : public Callable<C> {
public:
  explicit CallableOf(F f) : f_(std::move(f)) {}
  Value<C> operator()(const Value<C>& argument) const override { return f_(argument); }

private:
  F f_;
};
template <class C> struct Closure { std::shared_ptr<const Callable<C>> apply; };

namespace value_detail {
// An allocator whose element construction builds element i from maker->next(), the i-th call:
// allocate_shared<T[]> constructs the elements through its allocator one by one in ascending
// order, destroying those already built if one throws ([util.smartptr.shared.create]). The maker
// is used only while the array is built; later the allocator only frees.
template <class T, class Maker> class MakingAllocator {
public:
  using value_type = T;
  explicit MakingAllocator(Maker* maker) : maker_(maker) {}
  template <class U>
  MakingAllocator(const MakingAllocator<U, Maker>& other) : maker_(other.maker()) {}
  T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, std::size_t n) { std::allocator<T>().deallocate(p, n); }
  // Placement new from the prvalue: the made value is the element, not moved into it.
  template <class U> void construct(U* p) { ::new (static_cast<void*>(p)) U(maker_->next()); }
  Maker* maker() const { return maker_; }
  friend bool operator==(const MakingAllocator&, const MakingAllocator&) { return true; }

private:
  Maker* maker_;
};
} // namespace value_detail

enum class ValueKind { real, unit, integer, tuple, injection, function };
std::string_view to_string(ValueKind kind);

template <class C> class Value {
public:
  using Real = Dual<C>;
  using Node = std::variant<Real, Unit, Integer, Tuple<C>, Injection<C>, Closure<C>>;

  Value() : node_(Unit{}) {}
  Value(Real r) : node_(std::move(r)) {}
  Value(double r) : node_(std::in_place_type<Real>, r) {} // the real made in its place
  Value(Unit u) : node_(u) {}
  Value(Integer i) : node_(i) {}
  Value(Tuple<C> t) : node_(std::move(t)) {}
  Value(Injection<C> i) : node_(std::move(i)) {}
  Value(Closure<C> f) : node_(std::move(f)) {}

  static Value tuple(std::vector<Value> items) {
    return tuple_of(items.size(), [&items](std::size_t i) { return std::move(items[i]); });
  }
  // The tuple (make(0), ..., make(n - 1)), its items made in that order, in one allocation.
  // Each item is built in its place (default-constructing the items and then moving the made
  // values in was 6% of a pullback campaign).
  template <class F>
  requires std::is_invocable_r_v<Value, F&, std::size_t>
  static Value tuple_of(std::size_t n, F make) {
    struct Maker {
      F& make;
      std::size_t index = 0;
      Value next() { return make(index++); }
    };
    Maker maker{make};
    std::shared_ptr<Value[]> items =
        std::allocate_shared<Value[]>(value_detail::MakingAllocator<Value, Maker>(&maker), n);
    return Value(Tuple<C>{std::move(items), n});
  }
  static Value pair(Value first, Value second) {
    return tuple_of(2, [&](std::size_t i) { return std::move(i == 0 ? first : second); });
  }
  static Value injection(std::size_t index, Value payload) {
    return Value(Injection<C>{index, std::make_shared<const Value>(std::move(payload))});
  }
  template <class F>
  requires std::is_invocable_r_v<Value, const F&, const Value&>
  static Value function(F f) {
    return Value(Closure<C>{std::make_shared<const CallableOf<C, F>>(std::move(f))});
  }
  static Value integer(std::int64_t i) { return Value(Integer{i}); }
  // (x_1, ..., x_n) as a tuple of reals (n = 1: still a 1-tuple; use Value(x) for a real).
  static Value reals(std::span<const double> xs) {
    std::vector<Value> items;
    items.reserve(xs.size());
    for (const double x : xs)
      items.emplace_back(x);
    return tuple(std::move(items));
  }

  ValueKind kind() const { return static_cast<ValueKind>(node_.index()); }
  bool is_real() const { return kind() == ValueKind::real; }
  bool is_tuple() const { return kind() == ValueKind::tuple; }
  bool is_function() const { return kind() == ValueKind::function; }
  const Node& node() const { return node_; }

  // Accessors; a wrong kind is an evaluation error (an ill-typed model computation).
  const Real& real() const { return get<Real>("a real"); }
  std::int64_t integer() const { return get<Integer>("an integer").value; }
  std::span<const Value> items() const {
    const Tuple<C>& t = get<Tuple<C>>("a tuple");
    return {t.items.get(), t.size};
  }
  const Value& item(std::size_t i) const {
    const std::span<const Value> all = items();
    if (i >= all.size()) [[unlikely]]
      throw_no_component(all.size(), i);
    return all[i];
  }
  const Value& first() const { return item(0); }
  const Value& second() const { return item(1); }
  const Injection<C>& injection() const { return get<Injection<C>>("an injection"); }

  // Application of a function value.
  Value operator()(const Value& argument) const {
    return (*get<Closure<C>>("a function").apply)(argument);
  }

private:
  // The check inline, the error out of line: every item, first() and real() passes here.
  template <class T> const T& get(const char* wanted) const {
    if (const T* p = std::get_if<T>(&node_)) [[likely]]
      return *p;
    throw_wrong_kind(wanted, kind());
  }
  [[noreturn, gnu::noinline, gnu::cold]] static void throw_no_component(std::size_t size,
                                                                        std::size_t i) {
    throw AdsemError(ErrorKind::eval, "model: tuple of " + std::to_string(size) +
                                          " has no component " + std::to_string(i + 1));
  }
  [[noreturn, gnu::noinline, gnu::cold]] static void throw_wrong_kind(const char* wanted,
                                                                      ValueKind got) {
    throw AdsemError(ErrorKind::eval, std::string("model: expected ") + wanted + ", got " +
                                          std::string(to_string(got)));
  }

  Node node_;
};

inline std::string_view to_string(ValueKind kind) {
  switch (kind) {
  case ValueKind::real:
    return "a real";
  case ValueKind::unit:
    return "unit";
  case ValueKind::integer:
    return "an integer";
  case ValueKind::tuple:
    return "a tuple";
  case ValueKind::injection:
    return "an injection";
  case ValueKind::function:
    return "a function";
  }
  return "a value";
}

// A model-level type: what zero, probing and random arguments need to know about a value.
class ModelType {
public:
  enum class Kind { real, unit, integer, tuple, sum, function };

  static ModelType real() { return ModelType(Kind::real, {}); }
  static ModelType unit() { return ModelType(Kind::unit, {}); }
  static ModelType integer() { return ModelType(Kind::integer, {}); }
  static ModelType tuple(std::vector<ModelType> parts) { return {Kind::tuple, std::move(parts)}; }
  static ModelType pair(ModelType a, ModelType b) { return tuple({std::move(a), std::move(b)}); }
  static ModelType sum(std::vector<ModelType> parts) { return {Kind::sum, std::move(parts)}; }
  static ModelType function(ModelType domain, ModelType codomain) {
    return {Kind::function, {std::move(domain), std::move(codomain)}};
  }
  // real^n as a flat tuple of n reals.
  static ModelType reals(std::size_t n) { return tuple(std::vector<ModelType>(n, real())); }
  // manzyuk §5.1: Tσ = σ × σ, (tangent, primal).
  static ModelType tangent_bundle(const ModelType& t) { return pair(t, t); }

  Kind kind() const { return kind_; }
  const std::vector<ModelType>& parts() const { return parts_; }
  const ModelType& domain() const { return parts_.at(0); }   // function types
  const ModelType& codomain() const { return parts_.at(1); } // function types
  // Reals, unit, and tuples of them: values that flatten to R^n.
  bool is_euclidean() const;
  std::size_t dimension() const; // of a Euclidean type

  friend bool operator==(const ModelType&, const ModelType&) = default;

private:
  ModelType(Kind kind, std::vector<ModelType> parts) : kind_(kind), parts_(std::move(parts)) {}
  Kind kind_;
  std::vector<ModelType> parts_;
};

std::string to_string(const ModelType& type); // "R", "(R * R)", "(R -> R)", "(R + unit)"

// ---- the additive structure at every type (manzyuk spec §5.3 table: zero and sum) ----

// The zero of a type: 0, (), componentwise, λ_.0. Sums and integers have none (AdsemError eval).
template <class C> Value<C> zero(const ModelType& type) {
  switch (type.kind()) {
  case ModelType::Kind::real:
    return Value<C>(0.0);
  case ModelType::Kind::unit:
    return Value<C>(Unit{});
  case ModelType::Kind::tuple:
    return Value<C>::tuple_of(type.parts().size(),
                              [&type](std::size_t i) { return zero<C>(type.parts()[i]); });
  case ModelType::Kind::function: {
    const Value<C> z = zero<C>(type.codomain());
    return Value<C>::function([z](const Value<C>&) { return z; });
  }
  case ModelType::Kind::integer:
  case ModelType::Kind::sum:
    break;
  }
  throw AdsemError(ErrorKind::eval, "model: type " + to_string(type) + " has no zero");
}

// a + b: ring sum on reals, componentwise on tuples, pointwise on functions.
template <class C> Value<C> sum(const Value<C>& a, const Value<C>& b) {
  if (a.kind() != b.kind())
    throw AdsemError(ErrorKind::eval, "model: cannot add " + std::string(to_string(a.kind())) +
                                          " and " + std::string(to_string(b.kind())));
  switch (a.kind()) {
  case ValueKind::real:
    return Value<C>(a.real() + b.real());
  case ValueKind::unit:
    return a;
  case ValueKind::tuple: {
    if (a.items().size() != b.items().size())
      throw AdsemError(ErrorKind::eval, "model: cannot add tuples of different lengths");
    return Value<C>::tuple_of(a.items().size(),
                              [&](std::size_t i) { return sum(a.items()[i], b.items()[i]); });
  }
  case ValueKind::function:
    return Value<C>::function([f = a, g = b](const Value<C>& z) { return sum(f(z), g(z)); });
  case ValueKind::integer:
  case ValueKind::injection:
    break;
  }
  throw AdsemError(ErrorKind::eval,
                   "model: " + std::string(to_string(a.kind())) + " values have no sum");
}

// s · v: scaling by a real, componentwise / pointwise.
template <class C> Value<C> scale(const Dual<C>& s, const Value<C>& v) {
  switch (v.kind()) {
  case ValueKind::real:
    return Value<C>(s * v.real());
  case ValueKind::unit:
    return v;
  case ValueKind::tuple:
    return Value<C>::tuple_of(v.items().size(),
                              [&](std::size_t i) { return scale(s, v.items()[i]); });
  case ValueKind::function:
    return Value<C>::function([s, f = v](const Value<C>& z) { return scale(s, f(z)); });
  case ValueKind::integer:
  case ValueKind::injection:
    break;
  }
  throw AdsemError(ErrorKind::eval,
                   "model: " + std::string(to_string(v.kind())) + " values cannot be scaled");
}

template <class C> Value<C> difference(const Value<C>& a, const Value<C>& b) {
  return sum(a, scale(Dual<C>(-1.0), b));
}

// ---- ground values as vectors (krawiec §5.3 reals(v) / unflatten) ----

// The reals of a ground value, left to right (unit contributes none, integers are leaves and
// contribute none, injections contribute their payload's). Functions: AdsemError eval.
// Out: any container of Dual<C> with push_back (a std::vector, or an InlineVector for a
// primitive's few arguments).
template <class C, class Out> void flatten_into(const Value<C>& v, Out& out) {
  switch (v.kind()) {
  case ValueKind::real:
    out.push_back(v.real());
    return;
  case ValueKind::unit:
  case ValueKind::integer:
    return;
  case ValueKind::tuple:
    for (const Value<C>& item : v.items())
      flatten_into(item, out);
    return;
  case ValueKind::injection:
    flatten_into(*v.injection().payload, out);
    return;
  case ValueKind::function:
    break;
  }
  throw AdsemError(ErrorKind::eval, "model: a function value does not flatten to reals");
}
template <class C> std::vector<Dual<C>> flatten(const Value<C>& v) {
  std::vector<Dual<C>> out;
  flatten_into(v, out);
  return out;
}
// The tag-free parts of flatten(v).
template <class C> std::vector<C> flatten_primal(const Value<C>& v) {
  std::vector<C> out;
  for (const Dual<C>& x : flatten(v))
    out.push_back(x.primal());
  return out;
}

// A value shaped like `shape` whose reals are taken from xs, left to right; advances `next`.
template <class C>
Value<C> unflatten(const Value<C>& shape, std::span<const Dual<C>> xs, std::size_t& next) {
  switch (shape.kind()) {
  case ValueKind::real:
    if (next >= xs.size()) throw AdsemError(ErrorKind::eval, "model: too few reals to unflatten");
    return Value<C>(xs[next++]);
  case ValueKind::unit:
  case ValueKind::integer:
    return shape;
  case ValueKind::tuple:
    return Value<C>::tuple_of(shape.items().size(),
                              [&](std::size_t i) { return unflatten(shape.items()[i], xs, next); });
  case ValueKind::injection:
    return Value<C>::injection(shape.injection().index,
                               unflatten(*shape.injection().payload, xs, next));
  case ValueKind::function:
    break;
  }
  throw AdsemError(ErrorKind::eval, "model: cannot unflatten into a function value");
}
template <class C> Value<C> unflatten(const Value<C>& shape, std::span<const Dual<C>> xs) {
  std::size_t next = 0;
  Value<C> out = unflatten(shape, xs, next);
  if (next != xs.size()) throw AdsemError(ErrorKind::eval, "model: too many reals to unflatten");
  return out;
}

// Does any real in a ground value still carry a perturbation? (manzyuk §5.3 "no tag leakage")
template <class C> bool has_perturbations(const Value<C>& v) {
  for (const Dual<C>& x : flatten(v))
    if (!x.is_constant()) return true;
  return false;
}

// "(1, (2, 3))", "<function>", "inl 1.5"; reals print their tag-free part when unperturbed.
template <class C> std::string to_string(const Value<C>& v) {
  switch (v.kind()) {
  case ValueKind::real:
    return to_string(v.real());
  case ValueKind::unit:
    return "()";
  case ValueKind::integer:
    return std::to_string(v.integer());
  case ValueKind::tuple: {
    std::string out = "(";
    for (std::size_t i = 0; i < v.items().size(); ++i)
      out += (i == 0 ? "" : ", ") + to_string(v.items()[i]);
    return out + ")";
  }
  case ValueKind::injection:
    return "in" + std::to_string(v.injection().index + 1) + " " + to_string(*v.injection().payload);
  case ValueKind::function:
    return "<function>";
  }
  return "?";
}

} // namespace adsem::model
