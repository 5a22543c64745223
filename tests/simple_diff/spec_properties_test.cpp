// Spec §6 properties of simple-diff without a model on the other side: the values' flattening
// (P-DEN-1), and that trace-invariance (P-OP-4), derivative-typing (P-TY-4), the dot-product test
// (P-EQ-1) and the forward chain rule (P-EQ-3') can fail: the first rejects an output of the wrong
// type or shape, the others catch a transposed pullback, which they need no model to see.
#include <cmath>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/simple_diff/oracles.hpp"
#include "semantics/simple_diff/run.hpp"
#include "semantics/simple_diff/value.hpp"
#include "syntax/simple_diff/parser.hpp"
#include "syntax/simple_diff/printer.hpp"
#include "tests/support/calculus_checks.hpp"

namespace adsem::simple_diff::spec_properties_test {
namespace {

constexpr std::uint64_t seed = 20261201;

bool passes(const props::TrialResult& r) {
  return r.kind == props::TrialResult::Kind::pass;
}

Type real_pair() {
  return product_type(real_type(), real_type());
}

// P-DEN-1 (seed 003 Lemma 5.1, lines 809-813): flatten and unflatten_T are inverse bijections
// between the closed values of type T and R^|T|; the value unflatten makes has type T.
TEST(SimpleDiffValues, FlattenAndUnflattenAreInverse) {
  const Type u = unit_type(), r = real_type();
  const std::vector<Type> types = {r,
                                   u,
                                   real_pair(),
                                   product_type(r, product_type(u, r)),
                                   product_type(product_type(r, r), product_type(u, u)),
                                   product_type(u, product_type(r, product_type(r, r)))};
  for (const Type& t : types) {
    SCOPED_TRACE(print_type(t));
    const int n = type_size(*t);
    std::vector<double> xs;
    for (int i = 0; i < n; ++i)
      xs.push_back(0.25 * i - 1.5);
    const Value v = unflatten(t, xs);
    EXPECT_TRUE(same_type(type_of_value(v), t)) << print_value(v);
    EXPECT_EQ(flatten(v), xs);
    // and the other way: a value's coordinates give it back (compared by its printed form)
    EXPECT_EQ(print_value(unflatten(type_of_value(v), flatten(v))), print_value(v));
  }
}

// P-OP-4: M's trace at ρ = 2 runs as M at γ = 3; a tracer that kept ρ's value (the trace 4, the
// value of x * x at ρ) agrees at ρ only, and the check away from ρ fails.
TEST(SimpleDiffTraceInvariance, ATraceThatKeptTheValuesOfRhoFailsAwayFromIt) {
  const props::PropertyContext context;
  const Typed m =
      typecheck(parse_term("sin(x) * x", primitives()), primitives(), {{"x", real_type()}});
  const Term trace = symbolic_evaluate(m.term, {{"x", Value::real(2.0)}}).trace;
  EXPECT_TRUE(passes(oracle::trace_agrees_at(m.term, trace, "x", real_type(), {3.0}, context)));
  const Term constant = mk::constant(std::sin(2.0) * 2.0);
  EXPECT_TRUE(passes(oracle::trace_agrees_at(m.term, constant, "x", real_type(), {2.0}, context)));
  EXPECT_FALSE(passes(oracle::trace_agrees_at(m.term, constant, "x", real_type(), {3.0}, context)));
}

TEST(SimpleDiffDerivativeTyping, AWellTypedDerivativePasses) {
  // 1.R_x(x:real. x * x) with V the variable of Γ = {x : real}
  const Typed c = typecheck(parse_term("x * x", primitives()), primitives(), {{"x", real_type()}});
  const Term d =
      symbolic_derivative(mk::constant(1.0), mk::var("x"), "x", real_type(), c.term).trace;
  EXPECT_TRUE(passes(oracle::check_derivative_typing(d, "x", real_type())));
}

TEST(SimpleDiffDerivativeTyping, AnOutputOfAnotherTypeFails) {
  // a real where T = real × real: what an R that lost a component would give
  EXPECT_FALSE(passes(oracle::check_derivative_typing(mk::constant(0.0), "x", real_pair())));
}

TEST(SimpleDiffDerivativeTyping, AnOutputThatIsNoTraceTermFails) {
  // a conditional is no trace term (seed 003 lines 261-265), though it has type real
  const Term d = parse_term("if x < 0 then 1 else 2", primitives());
  ASSERT_FALSE(is_trace_term(*d));
  EXPECT_FALSE(passes(oracle::check_derivative_typing(d, "x", real_type())));
}

TEST(SimpleDiffDotProductTest, CatchesTheTransposedPullback) {
  testing::expect_killed_by(cli::builtin_registry(), "simple-diff", "op-r-arguments-swapped",
                            "dot-product-test", 300, seed);
}

TEST(SimpleDiffForwardChainRule, CatchesTheTransposedPullback) {
  testing::expect_killed_by(cli::builtin_registry(), "simple-diff", "op-r-arguments-swapped",
                            "forward-chain-rule", 300, seed);
}

} // namespace
} // namespace adsem::simple_diff::spec_properties_test
