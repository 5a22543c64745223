// The worked examples of spec §8 (E1-E10) with their expected numbers, through the calculus's own
// mechanisms (D + βℓ-reduction, read-backs A and B, bp, D→).
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "properties/linear_negation/frontend.hpp"
#include "semantics/linear_negation/families.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/transform.hpp"
#include "syntax/linear_negation/printer.hpp"
#include "tests/linear_negation/fig2_backprop.hpp"

namespace adsem::linear_negation::golden_test {
namespace {

constexpr double tight = 1e-12;

void expect_grad(const std::string& f, const std::vector<double>& at, double value,
                 const std::vector<double>& gradient,
                 const std::vector<std::string>& mechanisms = {"backprop", "injection"}) {
  const Frontend fe;
  for (const std::string& m : mechanisms) {
    SCOPED_TRACE(m);
    props::EvalOptions o;
    o.fuel = 2'000'000;
    const props::GradResult g = fe.grad(f, at, m, o);
    EXPECT_NEAR(g.value, value, tight * (1 + std::abs(value)));
    ASSERT_EQ(g.gradient.size(), gradient.size());
    for (std::size_t i = 0; i < gradient.size(); ++i)
      EXPECT_NEAR(g.gradient[i], gradient[i], tight * (1 + std::abs(gradient[i]))) << i;
  }
}

const char* e1 = "\\x1:R. \\x2:R. (sin(z2))[z2 := z1 * z1][z1 := x1 - x2]";

TEST(LinearNegationGolden, E1ComputationalGraphOfFig1) {
  expect_grad(e1, {5, 2}, 0.4121184852417566, {-5.466781571308061, 5.466781571308061},
              {"backprop", "injection", "bp", "forward"});
}

TEST(LinearNegationGolden, E1NormalFormIsASumOfBackpropagatorCalls) {
  const RealFunction f = real_function(parse_elaborated(e1, Mode::source));
  const Wrapper w = gradient_wrapper(f.body, f.inputs, {5, 2});
  RunOptions o;
  o.free_types = w.free_types;
  const linear_negation::Run run = normalise(w.term, o);
  // x1' (-5.466781571308061) + x2' 5.466781571308061, up to the order of the summands
  const std::string nf = print(run.result);
  EXPECT_NE(nf.find("x1' (-5.46678157130806"), std::string::npos) << nf;
  EXPECT_NE(nf.find("x2' 5.46678157130806"), std::string::npos) << nf;
  EXPECT_EQ(run.result->kind, Kind::add) << nf;
}

TEST(LinearNegationGolden, E1SymbolicBackpropagationOfFig2) {
  const auto out = ground_result(normalise(fixtures::fig2_backprop_at_5_2(), {}));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_NEAR(out[0], 0.4121184852417566, tight);
  EXPECT_NEAR(out[1], -5.466781571308061, tight);
  EXPECT_NEAR(out[2], 5.466781571308061, tight);
}

TEST(LinearNegationGolden, E2Composition) {
  expect_grad("\\x:R. (exp(z))[z := sin(x)]", {0.5}, 1.6151462964420837, {1.4174242246593913},
              {"backprop", "injection", "bp", "forward"});
}

TEST(LinearNegationGolden, E3HigherOrderLet) {
  expect_grad("\\x1:R. \\x2:R. let g = \\y:R. y * x1 + x2 in g (g x1)", {2, 3}, 17, {15, 3});
}

TEST(LinearNegationGolden, E4PairsAndPatternLet) {
  expect_grad("\\x1:R. \\x2:R. let (p, q) = (x1 * x2, sin(x1)) in p + q * q", {1, 2},
              2.708073418273571, {2.909297426825682, 1.0});
}

TEST(LinearNegationGolden, E5BetaRedexWithFunctionArgument) {
  expect_grad("\\x:R. (\\f:(R -> R). f (f x)) (\\y:R. sin(y) * x)", {0.7}, 0.30507603384288645,
              {1.1790022404792977});
}

TEST(LinearNegationGolden, E6SquaringChain) {
  expect_grad(family::square_chain(30), {1}, 1, {1073741824.0}, {"backprop", "bp", "forward"});
  expect_grad(family::square_chain(3), {1.01}, 1.0828567056280802, {8.57708281685608});
  expect_grad(family::square_chain_higher_order(3), {1.01}, 1.0828567056280802, {8.57708281685608});
}

TEST(LinearNegationGolden, E7SumChain) {
  expect_grad(family::sum_chain(5), {1, 2, 3, 4, 5}, 15, {1, 1, 1, 1, 1},
              {"backprop", "injection", "bp", "forward"});
}

TEST(LinearNegationGolden, E8RecurrentNetworkOfSection6) {
  expect_grad(family::rnn({1, 2}), {0.5, -1.0}, 0.4424909858925388,
              {0.149687250740809, 0.18034682434083663});
  expect_grad(family::rnn({1, 2, -1}), {0.5, -0.3}, 0.5713925647875071,
              {0.21346779008844566, 0.16771242191215213});
  // the corrected recurrence (erratum 4) agrees; the printed one gives 0.07370096413141027
  const auto rec = family::rnn_recurrence({1, 2}, 0.5, -1.0);
  EXPECT_NEAR(rec.d_rho, 0.18034682434083663, tight);
  EXPECT_NEAR(family::rnn_recurrence({1, 2}, 0.5, -1.0, true).d_rho, 0.07370096413141027, tight);
}

TEST(LinearNegationGolden, E9SquareAtThreeNormalisesToXPrimeSix) {
  const RealFunction f = real_function(parse_elaborated("\\x:R. x * x", Mode::source));
  const Wrapper w = gradient_wrapper(f.body, f.inputs, {3});
  RunOptions o;
  o.free_types = w.free_types;
  EXPECT_EQ(print(normalise(w.term, o).result), "x' 6");
}

TEST(LinearNegationGolden, E10SingleRules) {
  const Context g = {{"x'", neg_type(1)}};
  const auto run = [&](const std::string& text) {
    RunOptions o;
    o.free_types = g;
    o.trace = true;
    return normalise(parse_elaborated(text, Mode::target, g).term, o);
  };
  const linear_negation::Run r17 = run("x' 2 + x' 3");
  EXPECT_EQ(print(r17.result), "x' 5");
  EXPECT_EQ(r17.trace.at(0).rfind("factor-17", 0), 0u);
  const linear_negation::Run distance = run("((x' y2)[y2 := 4]) + x' 3");
  EXPECT_EQ(print(distance.result), "x' 7");
  EXPECT_EQ(distance.trace.at(0).rfind("factor-17", 0), 0u);
  const linear_negation::Run r13 = run("(1, 2) + (3, 4)");
  EXPECT_EQ(print(r13.result), "(4, 6)");
  EXPECT_EQ(r13.trace.at(0).rfind("sum-pair-13", 0), 0u);
  const linear_negation::Run lin = run("(\\a:R. x' (2 * a)) 5");
  EXPECT_EQ(print(lin.result), "x' 10");
  EXPECT_EQ(lin.trace.at(0).rfind("beta-7", 0), 0u);
  EXPECT_EQ(lin.trace.at(1).rfind("lin-subst-11", 0), 0u);
}

// (17) on a sum of more calls and heads than the side condition keeps inline: each head called
// more than once is factored (x' three times, y' twice), the heads called once are left, and the
// instances are in the order of their second summands (y' before x', whose name sorts first and
// which is called first).
TEST(LinearNegationGolden, FactoringGroupsTheHeadsOfALongSum) {
  Context g;
  for (const char* x : {"x'", "y'", "a'", "b'", "c'", "d'", "e'", "f'", "g'"})
    g[x] = neg_type(1);
  RunOptions o;
  o.free_types = g;
  o.trace = true;
  const linear_negation::Run run = normalise(
      parse_elaborated("x' 1 + y' 2 + y' 4 + a' 1 + b' 1 + c' 1 + x' 3 + d' 1 + e' 1 + f' 1 + "
                       "g' 1 + x' 5",
                       Mode::target, g)
          .term,
      o);
  EXPECT_EQ(print(run.result), "x' 9 + y' 6 + a' 1 + b' 1 + c' 1 + d' 1 + e' 1 + f' 1 + g' 1");
  ASSERT_FALSE(run.trace.empty());
  EXPECT_EQ(run.trace.front(), "factor-17: x' 1 + y' (2 + 4) + a' 1 + b' 1 + c' 1 + x' 3 + d' 1 + "
                               "e' 1 + f' 1 + g' 1 + x' 5");
  const auto factored = std::count_if(run.trace.begin(), run.trace.end(), [](const std::string& s) {
    return s.rfind("factor-17", 0) == 0;
  });
  EXPECT_EQ(factored, 3);
}

} // namespace
} // namespace adsem::linear_negation::golden_test
