#include "syntax/simple_diff/type.hpp"

namespace adsem::simple_diff {

Type real_type() {
  static const Type t =
      make_shared_node<const TypeNode>(TypeNode{TypeNode::Kind::real, nullptr, nullptr});
  return t;
}

Type unit_type() {
  static const Type t =
      make_shared_node<const TypeNode>(TypeNode{TypeNode::Kind::unit, nullptr, nullptr});
  return t;
}

Type product_type(Type left, Type right) {
  return make_shared_node<const TypeNode>(
      TypeNode{TypeNode::Kind::product, std::move(left), std::move(right)});
}

Type real_power(int n) {
  if (n <= 0) return unit_type();
  Type t = real_type();
  for (int i = 1; i < n; ++i)
    t = product_type(t, real_type());
  return t;
}

bool same_type(const TypeNode& a, const TypeNode& b) {
  if (&a == &b) return true;
  if (a.kind != b.kind) return false;
  if (a.kind != TypeNode::Kind::product) return true;
  return same_type(*a.left, *b.left) && same_type(*a.right, *b.right);
}

int type_size(const TypeNode& t) {
  switch (t.kind) {
  case TypeNode::Kind::real:
    return 1;
  case TypeNode::Kind::unit:
    return 0;
  case TypeNode::Kind::product:
    return type_size(*t.left) + type_size(*t.right);
  }
  return 0;
}

std::string print_type(const TypeNode& t) {
  switch (t.kind) {
  case TypeNode::Kind::real:
    return "real";
  case TypeNode::Kind::unit:
    return "unit";
  case TypeNode::Kind::product: {
    std::string right = print_type(*t.right);
    if (t.right->is_product()) right = "(" + right + ")";
    return print_type(*t.left) + " * " + right;
  }
  }
  return "?";
}

} // namespace adsem::simple_diff
