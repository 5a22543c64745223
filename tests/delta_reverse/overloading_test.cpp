// The overloading interpreter (seed 001 §8, L629-641; spec §4.2): spec §8's worked examples run
// directly on dual numbers make Drev's tapes, and the mutant only overloading-tape-agrees sees.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "helpers.hpp"
#include "properties/delta_reverse/mutants.hpp"
#include "quaternion.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::delta_reverse::overloading_test {
namespace {

using namespace testing;
constexpr long fuel = 10'000'000;
constexpr std::uint64_t seed = 20261202;

ReverseRun overloaded(const Fixture& s, Wrapper w = Wrapper::fig11, const RunSetup& v = {}) {
  return reverse_overloaded(s.program, s.s, v_real(1.0), w, EvalImpl::map, v, fuel);
}
ReverseRun translated(const Fixture& s, Wrapper w = Wrapper::fig11, const RunSetup& v = {}) {
  return reverse(s.program, s.s, v_real(1.0), w, EvalImpl::map, v, fuel);
}

// The same ids, Delta terms and coefficients bit for bit, and the same gradient bit for bit.
void expect_identical(const ReverseRun& a, const ReverseRun& b) {
  ASSERT_EQ(a.binds.size(), b.binds.size());
  for (std::size_t i = 0; i < a.binds.size(); ++i) {
    EXPECT_EQ(a.binds[i].first, b.binds[i].first) << "binding " << i;
    EXPECT_TRUE(same_delta(a.binds[i].second, b.binds[i].second))
        << print_delta(a.binds[i].second) << " vs " << print_delta(b.binds[i].second);
  }
  EXPECT_TRUE(same_delta(a.final_delta, b.final_delta));
  EXPECT_TRUE(same_bits(a.gradient, b.gradient));
}

TEST(DeltaReverseOverloading, Ex2Multiplication) {
  const Fixture s = setup(R"(\(x : Real, y : Real). x * y)", {3.0, 4.0});
  const ReverseRun r = overloaded(s);
  expect_tape(r, {"3 = Add(Scale(4.0, Var 1), Scale(3.0, Var 2))", "result = Var 3"});
  EXPECT_EQ(r.primal->real, 12.0);
  EXPECT_EQ(reals(r.gradient), (std::vector<double>{4.0, 3.0}));
  expect_identical(r, translated(s));
}

TEST(DeltaReverseOverloading, Ex3SharingKeepsOneBindingPerCall) {
  const Fixture s = setup(read_example("ex3_sharing.dr"), {3.0});
  const ReverseRun r = overloaded(s);
  expect_tape(r, {"2 = Add(Scale(3.0, Var 1), Scale(3.0, Var 1))", "3 = Add(Var 2, Var 2)",
                  "result = Var 3"});
  EXPECT_EQ(r.primal->real, 18.0);
  EXPECT_EQ(reals(r.gradient), (std::vector<double>{12.0}));
  expect_identical(r, translated(s));
}

// Test vector B under Fig. 15's wrapper: the 38 bindings of the program and ⊙'s one.
TEST(DeltaReverseOverloading, Ex6TestVectorB) {
  const Fixture s = setup(read_example("ex6_quaternion.dr"), quaternion_point);
  const ReverseRun r = overloaded(s, Wrapper::fig15);
  expect_tape(r, test_vector_b);
  EXPECT_EQ(r.binds.size(), 39U);
  EXPECT_EQ(r.first_id, 8);
  expect_near_all(reals(r.gradient), quaternion_gradient);
  expect_identical(r, translated(s, Wrapper::fig15));
}

// Literals are (r, Zero) without a binding, fromInt too, ltR drops the Deltas; helpers' reals
// computed before the λ are bound in the same run (Ex. 12); vectors and case as Drev runs them.
TEST(DeltaReverseOverloading, LiteralsSumsVectorsAndHelpersAsDrev) {
  for (const char* source : {
           R"(\(x : Real). 2.0 * x + fromInt 3)",
           R"(let c = sin 0.5 in \(x : Real). c * x)",
           R"(\(x : Real). case ltR (x, 1.0) of inl a -> x * x | inr b -> sin x)",
           R"(\(x : Real). let v = build[Real] (3, \(i : Int). x * fromInt i + sin x) in )"
           R"(index[Real] (v, 2) * index[Real] (v, 1))",
           R"(let twice = \(f : Real -> Real). \(y : Real). f (f y) in \(x : Real). )"
           R"(twice (\(z : Real). z * x) (cos x))",
       }) {
    SCOPED_TRACE(source);
    const Fixture s = setup(source, {0.5});
    for (const Wrapper w : {Wrapper::fig11, Wrapper::fig15, Wrapper::seeded})
      expect_identical(overloaded(s, w), translated(s, w));
  }
  const ReverseRun r = overloaded(setup(R"(\(x : Real). 2.0 * x + fromInt 3)", {0.5}));
  expect_tape(r, {"2 = Add(Scale(0.5, Zero), Scale(2.0, Var 1))", "3 = Add(Var 2, Zero)",
                  "result = Var 3"});
}

// Pairs evaluated right to left change no value and no gradient, only the overloading tape's
// order: Ex. 5's sin x * cos x binds cos first.
TEST(DeltaReverseOverloading, PairRightToLeftReordersOnlyTheOverloadingTape) {
  const RunSetup mutant = setup_for("delta-reverse/pair-components-right-to-left");
  const Fixture s = setup(R"(\(x : Real). sin x * cos x)", {0.5});
  const ReverseRun r = overloaded(s, Wrapper::fig11, mutant);
  expect_tape(r, {"2 = Scale(-0.479425538604203, Var 1)", "3 = Scale(0.8775825618903728, Var 1)",
                  "4 = Add(Scale(0.8775825618903728, Var 3), Scale(0.479425538604203, Var 2))",
                  "result = Var 4"});
  const ReverseRun paper = translated(s, Wrapper::fig11, mutant);
  expect_tape(paper,
              {"2 = Scale(0.8775825618903728, Var 1)", "3 = Scale(-0.479425538604203, Var 1)",
               "4 = Add(Scale(0.8775825618903728, Var 2), Scale(0.479425538604203, Var 3))",
               "result = Var 4"});
  EXPECT_TRUE(same_bits(r.gradient, paper.gradient));
}

TEST(DeltaReverseOverloading, TapeAgreementKillsPairRightToLeft) {
  adsem::testing::expect_killed_by(cli::builtin_registry(), "delta-reverse",
                                   "pair-components-right-to-left", "overloading-tape-agrees", 200,
                                   seed);
}

} // namespace
} // namespace adsem::delta_reverse::overloading_test
