#pragma once
// Types of the simple differentiable language: T ::= real | unit | T × U
// (seed 003, Section 2, lines 96-100).
#include <memory>
#include <string>

#include "syntax/core/shared_node.hpp"

namespace adsem::simple_diff {

struct TypeNode;
using Type = SharedNode<const TypeNode>;

struct TypeNode {
  enum class Kind { real, unit, product };
  Kind kind = Kind::real;
  Type left, right; // product only

  bool is_real() const { return kind == Kind::real; }
  bool is_unit() const { return kind == Kind::unit; }
  bool is_product() const { return kind == Kind::product; }
};

Type real_type();
Type unit_type();
Type product_type(Type left, Type right);
// real^n: the n-fold iterated product, left-nested: real^0 = unit, real^1 = real,
// real^3 = (real × real) × real (seed 003 lines 96-98).
Type real_power(int n);

bool same_type(const TypeNode& a, const TypeNode& b);
inline bool same_type(const Type& a, const Type& b) {
  return same_type(*a, *b);
}
// |real| = 1, |unit| = 0, |T × U| = |T| + |U| (seed 003 line 744).
int type_size(const TypeNode& t);

// Surface syntax: "real", "unit", "real * real * real" (left-associative; a right-nested
// product is parenthesised).
std::string print_type(const TypeNode& t);
inline std::string print_type(const Type& t) {
  return print_type(*t);
}

} // namespace adsem::simple_diff
