// P26 of the spec (seed 002 §6, L600): D commutes with Church lists,
//   D(List(A, X)) = List(D(A), D(X))   and   D([a1; …; an]_X) = [D(a1); …; D(an)]_{D(X)},
// where List(A, X) = (A → X → X) → X → X and [a1; …; an]_X = λf. λz. f a1 (… (f an z)).
// Checked syntactically (up to α): the paper's RNN of §6 folds over such a list.
#include <gtest/gtest.h>

#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation::church_list_test {
namespace {

Type list_type(const Type& a, const Type& x) {
  return arrow_type(arrow_type(a, arrow_type(x, x)), arrow_type(x, x));
}

TEST(LinearNegationChurchLists, DOfTheListTypeIsTheListOfTheDTypes) {
  const Type r = real_type();
  const std::vector<std::pair<Type, Type>> shapes = {{r, r},
                                                     {r, product_type(r, r)},
                                                     {arrow_type(r, r), r},
                                                     {product_type(r, r), arrow_type(r, r)}};
  for (const int d : {1, 2, 3})
    for (const auto& [a, x] : shapes) {
      SCOPED_TRACE(type_text(list_type(a, x)) + " at d = " + std::to_string(d));
      EXPECT_TRUE(
          same_type(back_type(list_type(a, x), d), list_type(back_type(a, d), back_type(x, d))));
    }
}

TEST(LinearNegationChurchLists, DOfAListIsTheListOfTheDOfItsElements) {
  // A = R, X = R × R; elements a numeral, a primitive and a β-redex
  const std::vector<std::string> elements = {"2", "sin(0.5)", "(\\y:R. y * y) 3"};
  std::string body = "z";
  for (auto it = elements.rbegin(); it != elements.rend(); ++it)
    body = "f (" + *it + ") (" + body + ")";
  const Typed list = parse_elaborated("\\f:R -> R * R -> R * R. \\z:R * R. " + body, Mode::source);
  Names names(list.term);
  const Term d_list = back(list.term, names);

  // [D(a1); D(a2); D(a3)]_{D(X)}, each element's D taken alone
  const Type r = real_type();
  const Type x = product_type(r, r);
  Term expected = var("z");
  for (auto it = elements.rbegin(); it != elements.rend(); ++it) {
    const Typed a = parse_elaborated(*it, Mode::source);
    Names own(a.term);
    expected = app(app(var("f"), back(a.term, own)), expected);
  }
  expected = lam(exp_binder("f", back_type(arrow_type(r, arrow_type(x, x)), 1)),
                 lam(exp_binder("z", back_type(x, 1)), expected));
  EXPECT_EQ(alpha_key(d_list), alpha_key(expected))
      << "D(list) = " << print(d_list) << "\nexpected " << print(expected);
}

} // namespace
} // namespace adsem::linear_negation::church_list_test
