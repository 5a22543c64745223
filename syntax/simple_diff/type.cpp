#include "syntax/simple_diff/type.hpp"

namespace adsem::simple_diff {

TypePtr real_type() {
  static const TypePtr t = std::make_shared<const Type>(Type{Type::Kind::real, nullptr, nullptr});
  return t;
}

TypePtr unit_type() {
  static const TypePtr t = std::make_shared<const Type>(Type{Type::Kind::unit, nullptr, nullptr});
  return t;
}

TypePtr product_type(TypePtr left, TypePtr right) {
  return std::make_shared<const Type>(Type{Type::Kind::product, std::move(left), std::move(right)});
}

TypePtr real_power(int n) {
  if (n <= 0) return unit_type();
  TypePtr t = real_type();
  for (int i = 1; i < n; ++i)
    t = product_type(t, real_type());
  return t;
}

bool type_equal(const Type& a, const Type& b) {
  if (&a == &b) return true;
  if (a.kind != b.kind) return false;
  if (a.kind != Type::Kind::product) return true;
  return type_equal(*a.left, *b.left) && type_equal(*a.right, *b.right);
}

int type_size(const Type& t) {
  switch (t.kind) {
  case Type::Kind::real:
    return 1;
  case Type::Kind::unit:
    return 0;
  case Type::Kind::product:
    return type_size(*t.left) + type_size(*t.right);
  }
  return 0;
}

std::string print_type(const Type& t) {
  switch (t.kind) {
  case Type::Kind::real:
    return "real";
  case Type::Kind::unit:
    return "unit";
  case Type::Kind::product: {
    std::string right = print_type(*t.right);
    if (t.right->is_product()) right = "(" + right + ")";
    return print_type(*t.left) + " * " + right;
  }
  }
  return "?";
}

} // namespace adsem::simple_diff
