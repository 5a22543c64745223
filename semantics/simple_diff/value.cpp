#include "semantics/simple_diff/value.hpp"

#include <stdexcept>

#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

Value Value::real(double r) {
  Value v;
  v.kind_ = Kind::real;
  v.real_ = r;
  return v;
}

Value Value::unit() {
  return Value{};
}

Value Value::pair(Value first, Value second) {
  Value v;
  v.kind_ = Kind::pair;
  v.pair_ = std::make_shared<const std::pair<Value, Value>>(std::move(first), std::move(second));
  return v;
}

Type type_of_value(const Value& v) {
  switch (v.kind()) {
  case Value::Kind::real:
    return real_type();
  case Value::Kind::unit:
    return unit_type();
  case Value::Kind::pair:
    return product_type(type_of_value(v.first()), type_of_value(v.second()));
  }
  return unit_type();
}

namespace {
Value unflatten_from(const TypeNode& t, const std::vector<double>& xs, std::size_t& i) {
  switch (t.kind) {
  case TypeNode::Kind::real:
    return Value::real(xs.at(i++));
  case TypeNode::Kind::unit:
    return Value::unit();
  case TypeNode::Kind::product: {
    Value a = unflatten_from(*t.left, xs, i);
    Value b = unflatten_from(*t.right, xs, i);
    return Value::pair(std::move(a), std::move(b));
  }
  }
  return Value::unit();
}
} // namespace

std::vector<double> flatten(const Value& v) {
  std::vector<double> out;
  flatten_into(v, out);
  return out;
}

Value unflatten(const Type& t, const std::vector<double>& xs) {
  if (xs.size() != static_cast<std::size_t>(type_size(*t)))
    throw std::invalid_argument("unflatten: " + std::to_string(xs.size()) + " reals for type " +
                                print_type(t));
  std::size_t i = 0;
  return unflatten_from(*t, xs, i);
}

Term value_term(const Value& v) {
  switch (v.kind()) {
  case Value::Kind::real:
    return mk::constant(v.as_real());
  case Value::Kind::unit:
    return mk::unit();
  case Value::Kind::pair:
    return mk::pair(value_term(v.first()), value_term(v.second()), type_of_value(v.first()),
                    type_of_value(v.second()));
  }
  return mk::unit();
}

std::string print_value(const Value& v) {
  switch (v.kind()) {
  case Value::Kind::real:
    return print_real(v.as_real());
  case Value::Kind::unit:
    return "()";
  case Value::Kind::pair: {
    std::string s(1, '<');
    s += print_value(v.first());
    s += ", ";
    s += print_value(v.second());
    s += '>';
    return s;
  }
  }
  return "()";
}

} // namespace adsem::simple_diff
