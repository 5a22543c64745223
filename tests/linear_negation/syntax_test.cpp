// Parser, printer and type checker on the examples of spec §8 E10 (well- and ill-typed linear
// terms) and on located errors.
#include <gtest/gtest.h>

#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/program.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"
#include "syntax/linear_negation/typecheck.hpp"

namespace adsem::linear_negation::syntax_test {
namespace {

Context e10_context() {
  return {{"x'", neg_type(1)}, {"y", real_type()}};
}

std::optional<std::string> error_of(const std::string& text) {
  try {
    (void)parse_elaborated(text, Mode::target, e10_context());
    return std::nullopt;
  } catch (const AdsemError& e) {
    return e.diagnostic().render();
  }
}

TEST(LinearNegationSyntax, E10WellTyped) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\\a:R. x' (a + a)", "R -o R"},     {"\\a:R. (a, 0)", "R -o R^2"},
      {"\\a:R. a + 0", "R -o R"},          {"\\a:R. 0", "R -o R"},
      {"\\a:R. x' (y * a)", "R -o R"},     {"\\a:R. x' (a * y)", "R -o R"},
      {"\\a:R. (x' a)[q := 3]", "R -o R"}, {"\\a:R. (2 * b)[b : R := a]", "R -o R"},
  };
  for (const auto& [text, type] : cases) {
    SCOPED_TRACE(text);
    const Typed t = parse_elaborated(text, Mode::target, e10_context());
    EXPECT_EQ(print_type(t.type), type);
  }
}

TEST(LinearNegationSyntax, E10IllTyped) {
  for (const std::string text :
       {"\\a:R. a * a", "\\a:R. sin(a)", "\\a:R. 1", "\\a:R. (\\u:!R. u) a", "\\a:R. x' a + 1",
        "\\a:R. (w)[w := a]", "\\a:R. (a, y)", "\\a:R. \\b:R. a"}) {
    SCOPED_TRACE(text);
    const auto e = error_of(text);
    ASSERT_TRUE(e.has_value());
    EXPECT_NE(e->find("type error"), std::string::npos) << *e;
  }
}

TEST(LinearNegationSyntax, ErrorsAreLocated) {
  try {
    (void)parse_term("\\x:!R.\n  x +", signature());
    FAIL() << "parsed";
  } catch (const AdsemError& e) {
    ASSERT_TRUE(e.diagnostic().pos.has_value());
    EXPECT_EQ(e.diagnostic().pos->line, 2);
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
  }
  try {
    (void)parse_elaborated("\\x:!R.\n   sin(x, x)", Mode::target);
    FAIL() << "typed";
  } catch (const AdsemError& e) {
    ASSERT_TRUE(e.diagnostic().pos.has_value());
    EXPECT_EQ(e.diagnostic().pos->line, 2);
    EXPECT_EQ(e.diagnostic().pos->column, 4);
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::type);
  }
}

TEST(LinearNegationSyntax, NumeralsAndMinus) {
  EXPECT_EQ(print(parse_term("x - 1", signature())), "sub(x, 1)");
  EXPECT_EQ(print(parse_term("f -1", signature())), "sub(f, 1)"); // spec §2.7: after an identifier
  EXPECT_EQ(print(parse_term("f (-1)", signature())), "f (-1)");
  EXPECT_EQ(print(parse_term("(-1) * 2", signature())), "(-1) * 2");
  EXPECT_EQ(print(parse_term("x-1", signature())), "sub(x, 1)");
}

TEST(LinearNegationSyntax, PrintParseRoundTripOnSpecExamples) {
  for (const std::string text : {"( (sin(w), \\a:R. w' (cos(w) * a)) [(w, w') := z2] )"
                                 "  [z2 := ( (v1 * v2, \\b:R. v1' (v2 * b) + v2' (v1 * b)) [(v1, "
                                 "v1') := z1] [(v2, v2') := z1] )]"
                                 "  [z1 := ( (u1 - u2, \\c:R. u1' (1 * c) + u2' ((-1) * c)) [(u1, "
                                 "u1') := x1] [(u2, u2') := x2] )]",
                                 "let (p, q) = (x1 * x2, sin(x1)) in p + q * q",
                                 "(\\f:!(R -> R). f (f x)) (\\y:!R. sin(y) * x)"}) {
    SCOPED_TRACE(text);
    const Term t = parse_term(text, signature());
    const Term back = parse_term(print(t), signature());
    EXPECT_EQ(alpha_key(t), alpha_key(back)) << print(t);
  }
}

// Checking an elaborated term again (subject reduction checks every step's result) builds no
// node: the term comes back as it is. A term whose ES binder has no type yet is rebuilt with it.
TEST(LinearNegationSyntax, CheckingAnElaboratedTermAgainKeepsItsNodes) {
  for (const std::string text :
       {"\\a:R. x' (a + a)", "\\a:R. (2 * b)[b : R := a]", "\\a:R. (x' a)[q := 3]",
        "(let (p, q) = (1, y) in p * q)[z := 2]", "\\u:!R. sin(u) + u"}) {
    SCOPED_TRACE(text);
    const Typed once = parse_elaborated(text, Mode::target, e10_context());
    const Typed twice = typecheck(once.term, e10_context(), signature());
    EXPECT_EQ(twice.term.get(), once.term.get());
    EXPECT_EQ(print(twice.term), print(once.term));
    EXPECT_TRUE(same_type(twice.type, once.type));
  }
  const Term untyped = parse_term("(2 * b)[b := 1]", signature(), Mode::target);
  ASSERT_FALSE(untyped->x.type);
  const Typed filled = typecheck(untyped, {}, signature());
  EXPECT_NE(filled.term.get(), untyped.get());
  ASSERT_TRUE(filled.term->x.type);
  EXPECT_EQ(print_type(filled.term->x.type), "R");
}

// The checker's scope (type_scope.hpp), with few names and with more than its first table
// holds: an inner binder's type is undone when its scope ends, and the shadowing rules of spec
// §3.4 hold.
Term under_binders(int n, Term body) {
  for (int i = n - 1; i >= 0; --i)
    body = lam(exp_binder("v" + std::to_string(i), real_type()), body);
  return body;
}
std::string type_text_or_error(const Term& t) {
  try {
    return print_type(typecheck(t, {}, signature()).type);
  } catch (const AdsemError& e) {
    return e.diagnostic().render();
  }
}

TEST(LinearNegationSyntax, ScopeUndoesShadowingAndRejectsItWhereTheRulesDo) {
  const Type r2 = product_type(real_type(), real_type());
  // \x:!R. ((\x:!R^2. x) (x, x), x): the inner x is R^2, the outer one R again after it
  const Term shadow =
      lam(exp_binder("x", real_type()),
          pair(app(lam(exp_binder("x", r2), var("x")), pair(var("x"), var("x"))), var("x")));
  // \a:R. (\a:!R. 0) 1, \x:!R. \x:R. x, \a:R. (\u:!R. a) 1
  const Term exp_over_linear =
      lam(lin_binder("a"), app(lam(exp_binder("a", real_type()), num(0)), num(1)));
  const Term linear_over_exp = lam(exp_binder("x", real_type()), lam(lin_binder("x"), var("x")));
  const Term linear_outside =
      lam(lin_binder("a"), app(lam(exp_binder("u", real_type()), var("a")), num(1)));
  for (const int outer : {0, 3, 40}) { // 40 names: the table grows (half of 64 slots)
    SCOPED_TRACE(outer);
    std::string prefix;
    for (int i = 0; i < outer; ++i)
      prefix += "R -> ";
    EXPECT_EQ(type_text_or_error(under_binders(outer, shadow)), prefix + "R -> (R * R) * R");
    EXPECT_NE(type_text_or_error(under_binders(outer, exp_over_linear))
                  .find("binder a shadows a linear variable"),
              std::string::npos);
    EXPECT_NE(type_text_or_error(under_binders(outer, linear_over_exp))
                  .find("linear binder x shadows another variable"),
              std::string::npos);
    EXPECT_NE(type_text_or_error(under_binders(outer, linear_outside))
                  .find("linear variable a used outside its linear judgment"),
              std::string::npos);
    EXPECT_NE(type_text_or_error(under_binders(outer, var("v" + std::to_string(outer))))
                  .find("unbound variable v"),
              std::string::npos);
  }
}

TEST(LinearNegationSyntax, SourceModeReadsRealBindersAsExponential) {
  const Typed t = parse_elaborated("\\x:R. x * x", Mode::source);
  EXPECT_EQ(print_type(t.type), "R -> R");
  EXPECT_THROW((void)parse_elaborated("\\x:R. x * x", Mode::target), AdsemError);
  EXPECT_THROW((void)parse_elaborated("\\x:!R. x + (x, x)", Mode::target), AdsemError);
}

TEST(LinearNegationSyntax, DeepTermsGiveAnErrorNotACrash) {
  std::string deep;
  for (int i = 0; i < 100'000; ++i)
    deep += "(";
  deep += "1";
  for (int i = 0; i < 100'000; ++i)
    deep += ")";
  EXPECT_THROW((void)parse_term(deep, signature()), AdsemError);
}

// The free-variable lists are sorted, merged and searched by compare_names: it must order names
// exactly as std::string_view does (bytes as unsigned char, a prefix first), or a lookup misses.
TEST(LinearNegationSyntax, CompareNamesOrdersAsStringView) {
  const std::vector<std::string> names = {"",     "a",     "a_1",    "a_10",  "a_2",  "ab",
                                          "b",    "x1h_1", "x1h_10", "x2h_2", "dx_8", "dy_10",
                                          "\xff", "\x7f",  "z'",     "z"};
  for (const std::string& a : names)
    for (const std::string& b : names) {
      const int expected = std::string_view(a) < std::string_view(b)   ? -1
                           : std::string_view(b) < std::string_view(a) ? 1
                                                                       : 0;
      EXPECT_EQ(compare_names(a, b), expected) << a << " vs " << b;
    }
}

} // namespace
} // namespace adsem::linear_negation::syntax_test
