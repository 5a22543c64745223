// The array extension (§10.2 of Krawiec et al.; spec §4.10): syntax, typing, the machine, the
// reconstructed translations of index and build against hand-computed values, and the two
// mutants the array properties kill; the sum over a vector, sumV (spec §9.12, an extension the
// spec suggests), worked by hand, and its mutant.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/delta_reverse/frontend.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "semantics/delta_reverse/wrappers.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/printer.hpp"
#include "syntax/delta_reverse/typecheck.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::delta_reverse::arrays_test {
namespace {

constexpr std::uint64_t seed = 20261201;
constexpr long test_fuel = 100'000;

Typed checked(const std::string& text) {
  return typecheck(parse_term(text));
}

// (2x + sin x)(x + sin x) through a vector of three elements x·i + sin x, indexed at 2 and 1.
const std::string two_elements =
    "\\(x : Real). let v = build[Real] (3, \\(i : Int). x * fromInt i + sin x) in "
    "index[Real] (v, 2) * index[Real] (v, 1)";

TEST(Arrays, ParsePrintAndType) {
  const Typed t = checked(two_elements);
  EXPECT_EQ(print_type(t.type), "Real -> Real");
  EXPECT_TRUE(same_term(parse_term(print(t.term)), t.term)) << print(t.term);
  EXPECT_EQ(print_type(checked("build[Real * Real]").type),
            "Int * (Int -> Real * Real) -> Vector (Real * Real)");
  EXPECT_EQ(print_type(checked("index[Vector Real]").type),
            "Vector Vector Real * Int -> Vector Real");
  // prefix constructors print without parentheses, as M does, and read back the same
  const Type nested = parse_type("Vector Real -> M (Vector (M Real))");
  EXPECT_EQ(print_type(nested), "Vector Real -> M Vector M Real");
  EXPECT_TRUE(same_type(parse_type(print_type(nested)), nested));
  // the names are the constants only before '[': still usable as variables
  EXPECT_EQ(print_type(checked("\\(index : Real). \\(build : Real). index * build").type),
            "Real -> Real -> Real");
  EXPECT_TRUE(type_error(parse_term("index[Real] (1.0, 0)"), {}).has_value());
  EXPECT_TRUE(type_error(parse_term("sequence[Real] (pure 1.0)"), {}).has_value());
}

TEST(Arrays, ValueAndGradientByEveryMechanism) {
  const RealProgram rp = real_program(checked(two_elements));
  const double x = 0.5;
  const double a = 2 * x + std::sin(x), b = x + std::sin(x);
  const double value = a * b, slope = (2 + std::cos(x)) * b + a * (1 + std::cos(x));
  const Value s = point_of(rp.program.s, {x});
  EXPECT_DOUBLE_EQ(flatten_reals(run_primal(rp.program, s, test_fuel).result).at(0), value);
  const ForwardRun f = forward(rp.program, s, v_real(1.0), {}, test_fuel);
  EXPECT_NEAR(flatten_reals(f.tangent).at(0), slope, 1e-12);
  for (const EvalImpl impl : {EvalImpl::map, EvalImpl::array}) {
    const ReverseRun r = reverse(rp.program, s, v_real(1.0), Wrapper::seeded, impl, {}, test_fuel);
    EXPECT_NEAR(flatten_reals(r.gradient).at(0), slope, 1e-12);
    // the elements' ids follow the element order: every rhs names earlier ids only
    for (const auto& [id, rhs] : r.binds) {
      std::vector<std::int64_t> ids;
      collect_var_ids(rhs, ids);
      for (const std::int64_t used : ids)
        EXPECT_LT(used, id) << print_delta(rhs);
    }
  }
  EXPECT_NEAR(flatten_reals(reverse1(rp.program, s, 1.0, {}, test_fuel).gradient).at(0), slope,
              1e-12);
  EXPECT_NEAR(flatten_reals(reverse2(rp.program, s, 1.0, {}, test_fuel).gradient).at(0), slope,
              1e-12);
}

TEST(Arrays, OutOfRangeIsADomainError) {
  for (const char* text : {"index[Real] (build[Real] (2, \\(i : Int). 1.0), 2)",
                           "index[Real] (build[Real] (2, \\(i : Int). 1.0), -1)",
                           "build[Real] (-1, \\(i : Int). 1.0)"}) {
    Ledger ledger;
    try {
      (void)eval_closed(checked(text).term, ledger);
      ADD_FAILURE() << text << " evaluated";
    } catch (const AdsemError& e) {
      EXPECT_EQ(e.diagnostic().kind, ErrorKind::domain) << text;
    }
  }
}

TEST(Arrays, DrevOfIndexAndBuildAsReconstructed) {
  const Term index = checked("index[Real]").term;
  EXPECT_EQ(print(translate(Translation::drev, index)),
            "pure (\\(p1 : Vector (Real * Delta) * Int). pure (index[Real * Delta] p1))");
  EXPECT_EQ(print(translate(Translation::drev, checked("build[Real]").term)),
            "pure (\\(p1 : Int * (Int -> M (Real * Delta))). sequence[Real * Delta] "
            "(build[M (Real * Delta)] p1))");
  EXPECT_EQ(print(translate(Translation::dfwd, index)), "index[Real * Real]");
}

TEST(Arrays, MutantsAreKilled) {
  adsem::testing::expect_killed_by(cli::builtin_registry(), "delta-reverse",
                                   "drev-build-unsequenced", "array-translation-typing", 300, seed);
  adsem::testing::expect_killed_by(cli::builtin_registry(), "delta-reverse",
                                   "sequence-elements-share-one-state", "array-reverse-correctness",
                                   300, seed);
}

// sumV : Vector Real → Real (spec §9.12). A source program's sumV sums reals; sumV[A] is the
// translations' sum of dual numbers.
TEST(ArraysSumV, ParsePrintAndType) {
  const Typed t = checked("\\(v : Vector Real). sumV v");
  EXPECT_EQ(print_type(t.type), "Vector Real -> Real");
  EXPECT_EQ(print(t.term), "\\(v : Vector Real). sumV v");
  EXPECT_TRUE(same_term(parse_term(print(t.term)), t.term));
  EXPECT_EQ(print_type(checked("sumV[Real * Delta]").type),
            "Vector (Real * Delta) -> Real * Delta");
  EXPECT_EQ(print(checked("sumV[Real * Delta]").term), "sumV[Real * Delta]");
  EXPECT_EQ(print(checked("sumV[Real]").term), "sumV");
  // only sums of reals and tangents, products of them
  EXPECT_TRUE(type_error(parse_term("sumV[Int]"), {}).has_value());
  EXPECT_TRUE(type_error(parse_term("sumV[Real -> Real]"), {}).has_value());
  EXPECT_TRUE(type_error(parse_term("sumV 1.0"), {}).has_value());
}

TEST(ArraysSumV, TheMachineSumsInIndexOrder) {
  const auto value_of = [](const std::string& text) {
    Ledger ledger;
    return eval_closed(checked(text).term, ledger);
  };
  // 0.5 + 1.5 + 2.5
  EXPECT_EQ(value_of("(\\(v : Vector Real). sumV v) "
                     "(build[Real] (3, \\(i : Int). fromInt i + 0.5))")
                ->real,
            4.5);
  EXPECT_EQ(value_of("sumV (build[Real] (0, \\(i : Int). 1.0))")->real, 0.0);
  EXPECT_EQ(value_of("sumV (build[Real] (1, \\(i : Int). 2.5))")->real, 2.5);
}

TEST(ArraysSumV, Translations) {
  const Term sum = checked("sumV").term;
  EXPECT_EQ(print(translate(Translation::dfwd, sum)), "sumV[Real * Real]");
  EXPECT_EQ(print(translate(Translation::drev1, sum)), "sumV[Real * DeltaS]");
  EXPECT_EQ(print(translate(Translation::drev2, sum)), "sumV[Real * Delta2]");
  EXPECT_EQ(print(translate(Translation::drev, sum)),
            "pure (\\(v1 : Vector (Real * Delta)). let p2 = sumV[Real * Delta] v1 in do { d3 <- "
            "deltaLet snd p2; pure (fst p2, Var(d3)) })");
  // each translation is well typed at the translated type and its print reads back the same
  for (const Translation t :
       {Translation::dfwd, Translation::drev1, Translation::drev2, Translation::drev}) {
    const Term target = translate(t, sum);
    EXPECT_FALSE(type_error(target, {}, translated_term_type(t, checked("sumV").type)))
        << print(target);
    EXPECT_TRUE(same_term(parse_term(print(target)), target)) << print(target);
  }
  // a target sumV has no clause: the translations take source terms
  EXPECT_THROW((void)translate(Translation::drev, checked("sumV[Real * Real]").term), AdsemError);
}

// \x. sumV (build (3, \i. fromInt i * x)) = 0x + 1x + 2x: the derivative is 0 + 1 + 2 = 3 by
// every mechanism, and Drev's tape ends in one binding whose rhs adds the three elements' Deltas.
TEST(ArraysSumV, GradientByHandByEveryMechanism) {
  const RealProgram rp =
      real_program(checked("\\(x : Real). sumV (build[Real] (3, \\(i : Int). fromInt i * x))"));
  const double x = 0.7;
  const Value s = point_of(rp.program.s, {x});
  EXPECT_EQ(flatten_reals(run_primal(rp.program, s, test_fuel).result).at(0),
            0.0 * x + 1.0 * x + 2.0 * x);
  EXPECT_EQ(flatten_reals(forward(rp.program, s, v_real(1.0), {}, test_fuel).tangent).at(0), 3.0);
  for (const EvalImpl impl : {EvalImpl::map, EvalImpl::array}) {
    const ReverseRun r = reverse(rp.program, s, v_real(1.0), Wrapper::seeded, impl, {}, test_fuel);
    EXPECT_EQ(flatten_reals(r.gradient).at(0), 3.0);
    // x is Var 1; the elements' products are 2, 3, 4; the sum is 5
    ASSERT_EQ(r.binds.size(), 4U);
    EXPECT_EQ(print_delta(r.binds.back().second), "Add(Add(Var 2, Var 3), Var 4)");
    const ReverseRun o =
        reverse_overloaded(rp.program, s, v_real(1.0), Wrapper::seeded, impl, {}, test_fuel);
    EXPECT_EQ(flatten_reals(o.gradient).at(0), 3.0);
    ASSERT_EQ(o.binds.size(), r.binds.size());
    for (std::size_t i = 0; i < r.binds.size(); ++i)
      EXPECT_TRUE(same_delta(o.binds[i].second, r.binds[i].second)) << i;
  }
  EXPECT_EQ(flatten_reals(reverse1(rp.program, s, 1.0, {}, test_fuel).gradient).at(0), 3.0);
  EXPECT_EQ(flatten_reals(reverse2(rp.program, s, 1.0, {}, test_fuel).gradient).at(0), 3.0);
}

// Fig. 14's rule for n summands: one binding, whose rhs has 2n - 1 nodes (n Vars, n - 1 Adds).
TEST(ArraysSumV, TheBindingHasLinearlyManyNodes) {
  const RealProgram rp =
      real_program(checked("\\(x : Real). sumV (build[Real] (100, \\(i : Int). fromInt i * x))"));
  const ReverseRun r = reverse(rp.program, point_of(rp.program.s, {0.5}), v_real(1.0),
                               Wrapper::seeded, EvalImpl::map, {}, test_fuel);
  ASSERT_EQ(r.binds.size(), 101U);
  EXPECT_EQ(delta_nodes(r.binds.back().second), 199U);
  EXPECT_EQ(flatten_reals(r.gradient).at(0), 4950.0); // 0 + 1 + ... + 99
}

TEST(ArraysSumV, MutantIsKilled) {
  adsem::testing::expect_killed_by(cli::builtin_registry(), "delta-reverse",
                                   "sum-v-drops-last-delta", "array-reverse-correctness", 300,
                                   seed);
}

} // namespace
} // namespace adsem::delta_reverse::arrays_test
