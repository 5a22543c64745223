// Parser, printer, elaboration and located errors (spec §2.7), the sugar of seed 004 L165-185,
// and deep nesting (design.md: a 100,000-deep term gives an error, not a crash).
#include <gtest/gtest.h>

#include "properties/perturbative/frontend.hpp"
#include "semantics/perturbative/constants.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "syntax/core/diagnostic.hpp"
#include "syntax/perturbative/printer.hpp"
#include "syntax/perturbative/typecheck.hpp"

namespace adsem::perturbative::syntax_test {
namespace {

Diagnostic error_of(const std::string& source) {
  try {
    parse_closed(source);
  } catch (const AdsemError& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "no error for " << source;
  return {};
}

TEST(PerturbativeSyntax, TIsATypeAbbreviation) {
  EXPECT_TRUE(same_type(parse_type("T R"), parse_type("R * R")));
  EXPECT_TRUE(same_type(parse_type("T (R -> R)"), parse_type("(R -> R) * (R -> R)")));
  EXPECT_EQ(print_type(parse_closed("T sin").type), "(R * R) -> (R * R)");
}

TEST(PerturbativeSyntax, PrintReparsesToTheSameTerm) {
  for (const std::string source :
       {"T (\\x:R. x*x + 1) (1, 3)", "\\p:T (R*R). mul (pi2 p)", "(0 : R * R)",
        "\\x:R. (in1 x : R * (R -> R))", "(\\f:R->R. f 3) (sin + cos)", "\\x:R. \\x:R * R. pi1 x",
        "T (T sin) ((0, 1), (1, 0.5))", "(-1.5) * exp (1e-05)"}) {
    const Term m = parse_closed(source);
    const Term back = parse_closed(print(m));
    EXPECT_EQ(canonical_key(back), canonical_key(m)) << source << " printed " << print(m);
    EXPECT_TRUE(same_type(back.type, m.type));
    EXPECT_FALSE(type_error(m, {}, constant_types()));
  }
}

TEST(PerturbativeSyntax, LinearitySugarDistributes) {
  const Term pair_of_zero = parse_closed("\\y:R. ((0, y) : R * R)");
  ASSERT_EQ(pair_of_zero.items.size(), 1u); // ⟨0, y⟩ ≡ ι2 y
  EXPECT_EQ(pair_of_zero.items[0]->operand->kind, Kind::inj);
  EXPECT_TRUE(parse_closed("\\x:R. (0 : R)").is_zero());          // λx.0 ≡ 0
  EXPECT_EQ(parse_closed("(sin + cos) 1").items.size(), 2u);      // operator position is linear
  EXPECT_EQ(parse_closed("(\\x:R. x) (1 + 2)").items.size(), 1u); // argument position is not
  EXPECT_EQ(parse_closed("\\x:R. x + x").items.size(), 2u);       // λx.(s1+s2) := λx.s1 + λx.s2
}

TEST(PerturbativeSyntax, VariablesShadowPrimitives) {
  // M15 binds `g`, also a name in the shared primitive table; `sin` can be bound too.
  const Term m = parse_closed("\\sin:R. sin");
  EXPECT_EQ(m.items[0]->operand->kind, Kind::var);
  EXPECT_EQ(print_type(m.type), "R -> R");
}

TEST(PerturbativeSyntax, ErrorsAreLocated) {
  const Diagnostic unbound = error_of("\\x:R.\n  x + y");
  EXPECT_EQ(unbound.kind, ErrorKind::type);
  ASSERT_TRUE(unbound.pos);
  EXPECT_EQ(unbound.pos->line, 2);
  EXPECT_EQ(unbound.pos->column, 7);
  const Diagnostic mismatch = error_of("sin (1, 2)");
  EXPECT_EQ(mismatch.kind, ErrorKind::type);
  EXPECT_EQ(mismatch.pos->column, 5);
  const Diagnostic syntax = error_of("(\\x:R. x");
  EXPECT_EQ(syntax.kind, ErrorKind::parse);
  EXPECT_EQ(syntax.pos->column, 9);
  EXPECT_EQ(error_of("0").kind, ErrorKind::type); // 0 needs an ascription in synthesis
  EXPECT_EQ(error_of("in1 1").kind, ErrorKind::type);
  EXPECT_EQ(error_of("T 1").kind, ErrorKind::type);
  EXPECT_EQ(error_of("\\x:R * R * R. x").kind, ErrorKind::parse); // * is not associative
}

TEST(PerturbativeSyntax, DeepNestingIsAnErrorNotACrash) {
  constexpr int depth = 100'000;
  const std::string parens = std::string(depth, '(') + "1" + std::string(depth, ')');
  EXPECT_THROW(parse_closed(parens), AdsemError);
  std::string negs;
  for (int i = 0; i < depth; ++i)
    negs += "-";
  EXPECT_THROW(parse_closed(negs + "x"), AdsemError);
  std::string lams;
  for (int i = 0; i < depth; ++i)
    lams += "\\x:R. ";
  EXPECT_THROW(parse_closed(lams + "x"), AdsemError);
  std::string apps = "1";
  for (int i = 0; i < depth; ++i)
    apps = "sin (" + apps + ")";
  EXPECT_THROW(parse_closed(apps), AdsemError);
}

TEST(PerturbativeSyntax, NestingWithinTheBudgetEvaluates) {
  std::string t = "1";
  for (int i = 0; i < 500; ++i)
    t = "neg (" + t + ")";
  const auto run = normalise(parse_closed(t), *paper_rules());
  EXPECT_EQ(numeric_reals(run.result), std::vector<double>{1.0});
}

} // namespace
} // namespace adsem::perturbative::syntax_test
