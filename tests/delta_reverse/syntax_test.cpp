// Parser, printer and type checker (spec §2.2, §3): sugar, located errors, round trips.
#include <gtest/gtest.h>

#include "helpers.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "syntax/delta_reverse/printer.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

namespace adsem::delta_reverse::syntax_test {
namespace {

std::string type_of(const std::string& src) {
  return print_type(typecheck(parse_term(src)).type);
}

TEST(DeltaReverseSyntax, TypesOfTheExamples) {
  EXPECT_EQ(type_of(R"(\(x : Real, y : Real). x * y)"), "Real * Real -> Real");
  EXPECT_EQ(type_of(testing::read_example("ex6_quaternion.dr")),
            "(Real * Real * Real * Real) * Real * Real * Real -> Real");
  EXPECT_EQ(type_of(R"(\(p : (Real + Real) * Real). case fst p of inl a -> a | inr b -> b)"),
            "(Real + Real) * Real -> Real");
  EXPECT_EQ(type_of("inl[Int] 2.0"), "Real + Int");
  EXPECT_EQ(type_of("ltR (1.0, 2.0)"), "Int + Int");
  EXPECT_EQ(type_of("fromInt (addZ (1, -2))"), "Real");
  EXPECT_EQ(type_of("do { d <- deltaLet (Add(Zero, Scale(2.0, Var(1)))); pure (1.0, Var(d)) }"),
            "M (Real * Delta)");
  EXPECT_EQ(type_of(R"(\(x : R). x)"), "Real -> Real"); // alias
}

TEST(DeltaReverseSyntax, SugarIsRemovedLinearly) {
  // let (x1, x2, x3) = e1 in e2 through intermediate variables (spec §2.2)
  const Term t = parse_term("let (a, b, c) = (1.0, 2.0, 3.0) in a + b * c");
  EXPECT_EQ(print(t), "let p1 = (1.0, 2.0, 3.0) in let a = fst p1 in let p2 = snd p1 in let b = "
                      "fst p2 in let c = snd p2 in a + b * c");
  EXPECT_EQ(print(parse_term("-2.5 - -x")), "(-2.5) - negR x");
  EXPECT_EQ(print(typecheck(parse_term(R"(\(q : Real^4). q.4 + q.2)")).term),
            "\\(q : Real * Real * Real * Real). snd snd snd q + fst snd q");
}

TEST(DeltaReverseSyntax, LocatedErrors) {
  try {
    (void)typecheck(parse_term("\\(x : Real).\n  x + y"));
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::type);
    EXPECT_EQ(e.diagnostic().pos->line, 2);
    EXPECT_EQ(e.diagnostic().pos->column, 7);
    EXPECT_NE(e.diagnostic().message.find("unbound variable 'y'"), std::string::npos);
  }
  try {
    (void)parse_term("\\(x). x");
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    EXPECT_EQ(e.diagnostic().pos->column, 4);
  }
  EXPECT_THROW((void)typecheck(parse_term("fst 1.0")), AdsemError);
  EXPECT_THROW((void)typecheck(parse_term("case 1.0 of inl a -> a | inr b -> b")), AdsemError);
  EXPECT_THROW((void)typecheck(parse_term("(\\(x : Real). x) 1")), AdsemError);
}

TEST(DeltaReverseSyntax, PrintedTermsReparse) {
  for (const char* name : {"ex2_mul.dr", "ex3_sharing.dr", "ex6_quaternion.dr",
                           "ex7_higher_order.dr", "ex8_sums.dr"}) {
    const Typed t = typecheck(parse_term(testing::read_example(name)));
    EXPECT_TRUE(same_term(typecheck(parse_term(print(t.term))).term, t.term)) << name;
    // the translations print and re-parse too, at their translated types
    for (const Translation tr :
         {Translation::dfwd, Translation::drev1, Translation::drev2, Translation::drev}) {
      const Term x = translate(tr, t.term);
      const Typed back = typecheck(parse_term(print(x)));
      EXPECT_TRUE(same_term(back.term, x)) << name << " " << translation_name(tr);
      EXPECT_TRUE(same_type(back.type, translated_term_type(tr, t.type)));
    }
  }
}

TEST(DeltaReverseSyntax, DeepTermsGiveAnErrorNotACrash) {
  std::string deep;
  for (int i = 0; i < 100'000; ++i)
    deep += "(";
  deep += "1.0";
  for (int i = 0; i < 100'000; ++i)
    deep += ")";
  EXPECT_THROW((void)parse_term(deep), AdsemError);
}

} // namespace
} // namespace adsem::delta_reverse::syntax_test
