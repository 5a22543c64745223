// Spec §6 P20's source rewrites (properties/delta_reverse/source_rewrites.hpp) on hand-written
// terms, each where naive substitution or floating would capture a variable; that the properties
// metamorphic-rewrites and delta-linearity can fail.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/delta_reverse/delta_linearity.hpp"
#include "properties/delta_reverse/frontend.hpp"
#include "properties/delta_reverse/source_rewrites.hpp"
#include "semantics/delta_reverse/delta_eval.hpp"
#include "semantics/delta_reverse/wrappers.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/printer.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::delta_reverse::spec_properties_test {
namespace {

constexpr std::uint64_t seed = 20261201;
constexpr long test_fuel = 100'000;

Term source(const std::string& text) {
  return typecheck(parse_term(text)).term;
}

struct Measured {
  std::vector<double> primal, gradient;
  long bindings = 0, calls = 0;
};

// e s, R{e}(s, dt) at the point `at` with every real of dt 1, the tape's length and the real
// primitive calls of e s.
Measured measure(const Term& e, const std::vector<double>& at) {
  const RealProgram rp = real_program(typecheck(e));
  const Value s = point_of(rp.program.s, at);
  const PrimalRun primal = run_primal(rp.program, s, test_fuel);
  std::size_t next = 0;
  const Value dt = unflatten_reals(
      primal.result, std::vector<double>(flatten_reals(primal.result).size(), 1.0), next);
  const ReverseRun run =
      reverse(rp.program, s, dt, Wrapper::seeded, EvalImpl::array, {}, test_fuel);
  return {flatten_reals(primal.result), flatten_reals(run.gradient),
          static_cast<long>(run.binds.size()), primal.real_prim_calls};
}

// The rewritten term has the original's type, value and gradient at `at`, and its tape changes
// by exactly as many bindings as real primitive calls; returns the two measurements.
std::pair<Measured, Measured> expect_same_meaning(const Term& before, const Term& after,
                                                  const std::vector<double>& at) {
  EXPECT_TRUE(same_type(typecheck(before).type, typecheck(after).type)) << print(after);
  const Measured a = measure(before, at), b = measure(after, at);
  EXPECT_EQ(a.primal, b.primal) << print(after);
  EXPECT_EQ(a.gradient.size(), b.gradient.size());
  for (std::size_t i = 0; i < a.gradient.size() && i < b.gradient.size(); ++i)
    EXPECT_NEAR(a.gradient[i], b.gradient[i], 1e-12 * (1 + std::abs(a.gradient[i])));
  EXPECT_EQ(b.bindings - a.bindings, b.calls - a.calls) << print(after);
  return {a, b};
}

TEST(DeltaReverseSubstitution, RenamesABinderThatWouldCapture) {
  // (\y. x + y)[y * 2.0 / x]: naively \y. y * 2.0 + y
  FreshNames fresh({"x", "y"});
  const Term t = parse_term("\\(y : Real). x + y");
  const Term got = substitute(t, "x", parse_term("y * 2.0"), fresh);
  EXPECT_EQ(print(got), print(parse_term("\\(y1 : Real). y * 2.0 + y1")));
  // a binder of x itself stops the substitution
  EXPECT_EQ(print(substitute(parse_term("\\(x : Real). x"), "x", parse_term("y"), fresh)),
            "\\(x : Real). x");
}

TEST(DeltaReverseLetInlining, DuplicatesSharedWorkAndItsBindings) {
  const Term e = source("\\(x : Real). let z = x * x in z + z");
  const Term inlined = inline_lets(e);
  EXPECT_EQ(print(inlined), print(parse_term("\\(x : Real). x * x + x * x")));
  const auto [a, b] = expect_same_meaning(e, inlined, {3.0});
  EXPECT_EQ(a.bindings, 2); // mulR, addR
  EXPECT_EQ(b.bindings, 3); // mulR twice, addR
}

TEST(DeltaReverseLetInlining, AvoidsCaptureUnderAnInnerBinderOfTheSameName) {
  // naive: (\x. x * x + x) 1.0, which is 2 instead of 3 * 3 + 1
  const Term e = source("\\(x : Real). let z = x * x in (\\(x : Real). z + x) 1.0");
  const Term inlined = inline_lets(e);
  EXPECT_NE(print(inlined), print(parse_term("\\(x : Real). (\\(x : Real). x * x + x) 1.0")));
  const auto [a, b] = expect_same_meaning(e, inlined, {3.0});
  EXPECT_EQ(a.primal, std::vector<double>{10.0});
}

TEST(DeltaReverseLetInlining, DropsAnUnusedLetAndItsBinding) {
  const Term e = source("\\(x : Real). let z = sin x in x * 2.0");
  const auto [a, b] = expect_same_meaning(e, inline_lets(e), {0.5});
  EXPECT_EQ(b.calls, a.calls - 1);
}

TEST(DeltaReverseLetFloating, FloatsOutOfAPairWithAFreshName) {
  // naive: let x = 2.0 * x in (x, x + 1.0), whose first component is 2x
  const Term e = source("\\(x : Real). (x, let x = 2.0 * x in x + 1.0)");
  const Term floated = float_lets(e);
  ASSERT_EQ(floated->kind, Kind::lam);
  EXPECT_EQ(floated->kids[0]->kind, Kind::let);
  EXPECT_NE(floated->kids[0]->name, "x");
  const auto [a, b] = expect_same_meaning(e, floated, {1.5});
  EXPECT_EQ(a.primal, (std::vector<double>{1.5, 4.0}));
  EXPECT_EQ(a.bindings, b.bindings);
}

TEST(DeltaReverseLetFloating, FloatsALetOutOfARightHandSideAndAnArgument) {
  const Term e =
      source("\\(x : Real). let y = (let z = x * x in z + 1.0) in sin (let w = y * y in w)");
  const Term floated = float_lets(e);
  EXPECT_EQ(print(floated),
            print(parse_term("\\(x : Real). let z2 = x * x in let y = z2 + 1.0 in let w1 = y * "
                             "y in sin w1")));
  expect_same_meaning(e, floated, {0.7});
}

TEST(DeltaReverseEtaExpansion, WrapsFunctionsNotLambdas) {
  const Term e = source("\\(x : Real). sin x");
  EXPECT_EQ(print(eta_expand(e)), print(parse_term("\\(x : Real). (\\(y1 : Real). sin y1) x")));
  expect_same_meaning(e, eta_expand(e), {0.3});
}

TEST(DeltaReverseEtaExpansion, ItsVariableAvoidsTheNamesOfTheTerm) {
  // `let g = ... in g` mentions y1 free: its expansion must not be \y1. (let g ... in g) y1
  const Term e = source("\\(y1 : Real). (let g = \\(w : Real). w * y1 in g) 2.0");
  const Term expanded = eta_expand(e);
  const auto [a, b] = expect_same_meaning(e, expanded, {1.25});
  EXPECT_EQ(a.primal, std::vector<double>{2.5});
}

TEST(DeltaReverseEtaExpansion, ANonValueRunsOncePerCall) {
  // the right-hand side of f is a non-value of arrow type: expanded, it runs (and sin with it)
  // once per call of f instead of once
  const Term e =
      source("\\(x : Real). let f = (let z = sin x in \\(w : Real). z * w) in f 1.0 + f 2.0");
  const auto [a, b] = expect_same_meaning(e, eta_expand(e), {0.4});
  EXPECT_EQ(b.calls, a.calls + 1); // sin runs in each of the two calls
}

TEST(DeltaReverseKnownCase, BecomesALetOfThePayload) {
  const Term e =
      source("\\(x : Real). case inr[Real] (x * 2.0) of inl a -> a | inr b -> b + sin b");
  const Term rewritten = known_case(e);
  EXPECT_EQ(print(rewritten), print(parse_term("\\(x : Real). let b = x * 2.0 in b + sin b")));
  const auto [a, b] = expect_same_meaning(e, rewritten, {0.9});
  EXPECT_EQ(a.bindings, b.bindings);
}

// A Drev{e} run in a runDelta of its own loses the bindings of the reals computed before the
// main λ (Ex. 12) while the gradient stays right: inlining such a real into the λ, or dropping an
// unused one, changes the bindings unlike the calls.
TEST(DeltaReverseMetamorphicRewrites, CatchesBindingsLostOutsideRunDelta) {
  adsem::testing::expect_killed_by(cli::builtin_registry(), "delta-reverse",
                                   "paper-literal-drev-applied-outside-rundelta",
                                   "metamorphic-rewrites", 300, seed);
}

// P12 corollary: the dense meaning is linear; an affine "meaning" (⟦u⟧γ + 1) is not, unless
// α + β = 1.
TEST(DeltaReverseLinearity, AnAffineMeaningFails) {
  const Delta u = d_add(d_scale(2.0, d_var(1)), d_let(5, d_var(2), d_scale(-1.0, d_var(5))));
  DeltaEnv g1, g2;
  g1[1] = Eigen::Vector2d(1.0, -2.0);
  g1[2] = Eigen::Vector2d(0.5, 3.0);
  g2[1] = Eigen::Vector2d(-1.5, 4.0);
  g2[2] = Eigen::Vector2d(2.0, 0.25);
  const Tolerance tol = default_tolerance(CheckKind::exact_value);
  EXPECT_EQ(check_delta_linearity(u, g1, g2, 2.0, 3.0, dense_meaning, 2, tol).kind,
            props::TrialResult::Kind::pass);
  const DeltaMeaning affine = [](const Delta& d, const DeltaEnv& g, int n) {
    return Eigen::VectorXd(dense_meaning(d, g, n).array() + 1.0);
  };
  EXPECT_EQ(check_delta_linearity(u, g1, g2, 2.0, 3.0, affine, 2, tol).kind,
            props::TrialResult::Kind::fail);
}

// Spec §9.3 / §11 item 12: an eval that overwrites a fan-out id keeps the contribution swept last,
// and Fig. 12's order sweeps a shared id's uses in another order than Fig. 9's, so the two
// evaluators' gradients part.
TEST(DeltaReverseEvaluationOrder, CatchesAnEvalThatOverwritesOnFanOut) {
  adsem::testing::expect_killed_by(cli::builtin_registry(), "delta-reverse",
                                   "eval-overwrites-on-fan-out", "evaluation-order-agreement", 300,
                                   seed);
}

} // namespace
} // namespace adsem::delta_reverse::spec_properties_test
