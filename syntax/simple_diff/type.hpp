#pragma once
// Types of the simple differentiable language: T ::= real | unit | T × U
// (seed 003, Section 2, lines 96-100).
#include <memory>
#include <string>

namespace adsem::simple_diff {

struct Type;
using TypePtr = std::shared_ptr<const Type>;

struct Type {
  enum class Kind { real, unit, product };
  Kind kind = Kind::real;
  TypePtr left, right; // product only

  bool is_real() const { return kind == Kind::real; }
  bool is_unit() const { return kind == Kind::unit; }
  bool is_product() const { return kind == Kind::product; }
};

TypePtr real_type();
TypePtr unit_type();
TypePtr product_type(TypePtr left, TypePtr right);
// real^n: the n-fold iterated product, left-nested: real^0 = unit, real^1 = real,
// real^3 = (real × real) × real (seed 003 lines 96-98).
TypePtr real_power(int n);

bool type_equal(const Type& a, const Type& b);
inline bool type_equal(const TypePtr& a, const TypePtr& b) {
  return type_equal(*a, *b);
}
// |real| = 1, |unit| = 0, |T × U| = |T| + |U| (seed 003 line 744).
int type_size(const Type& t);

// Surface syntax: "real", "unit", "real * real * real" (left-associative; a right-nested
// product is parenthesised).
std::string print_type(const Type& t);
inline std::string print_type(const TypePtr& t) {
  return print_type(*t);
}

} // namespace adsem::simple_diff
