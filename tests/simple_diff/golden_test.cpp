// Golden tests: the worked examples of spec §8.1 and §8.2 through the operational semantics
// (ordinary evaluation and rd), with both symbolic differentiations (Fig. 6 literally, and the
// linear-size R-fast of spec §9 P-1).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "tests/simple_diff/helpers.hpp"

namespace adsem::simple_diff::golden_test {
namespace {

using test::failure;
using test::reals;

const DiffMode both[] = {DiffMode::linear, DiffMode::literal};

const char* name(DiffMode d) {
  return d == DiffMode::linear ? "R-fast" : "Fig. 6 literal";
}

struct Golden {
  const char* id;
  const char* source;
  std::vector<double> expected;
  bool literal_feasible = true; // Fig. 6 literally is exponential (spec P-1)
};

void expect_reals(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-12 * (1 + std::abs(want[i]))) << "coordinate " << i;
}

TEST(SimpleDiffGolden, PaperAndRegressionExamples) {
  const double e19 = std::cos(0.5) * std::exp(std::sin(0.5));
  const std::vector<Golden> cases = {
      // §8.1
      {"E1", "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))", {1}},
      {"E2", "letrec f(x:real):real = 1.rd[1](y:real. x + y) in 1.rd[1](x:real. x + f(x))", {1}},
      {"E3a", "let relu(x:real):real = if x < 0 then 0 else x in relu(-2)", {0}},
      {"E3b", "let relu(x:real):real = if x < 0 then 0 else x in relu(3)", {3}},
      {"E3d", "let relu(x:real):real = if x < 0 then 0 else x in grad[-2](x:real. relu(x))", {0}},
      {"E3e", "let relu(x:real):real = if x < 0 then 0 else x in grad[3](x:real. relu(x))", {1}},
      {"E4a", "dprod2(<<1,2>,<3,4>>)", {11}},
      {"E4b", "dprod2_r(<<<1,2>,<3,4>>, 2>)", {6, 8, 2, 4}},
      {"E4c", "grad[<<1,2>,<3,4>>](p:real^2*real^2. dprod2(p))", {3, 4, 1, 2}},
      // §8.2
      {"E6", "1.rd[1](x:real. 1.rd[x](y:real. y * y))", {2}},
      {"E7", "1.rd[2](x:real. 1.rd[x](y:real. y * y * y))", {12}},
      {"E8", "1.rd[2](x:real. 1.rd[x](y:real. 1.rd[y](z:real. z * z * z)))", {6}, false},
      {"E9", "1.fd[real, 3](x:real. x * x)", {6}},
      {"E10",
       "<1, 0>.fd[real * real, <1, 2>](x:real^2. <fst(x) * snd(x), sin(fst(x))>)",
       {2, std::cos(1.0)},
       false},
      {"E11", "grad[<1, 2>](x:real^2. fst(x) * snd(x))", {2, 1}},
      {"E12", "<1, 2>.rd[<3, 4>](x:real^2. <fst(x) * snd(x), fst(x) + snd(x)>)", {6, 5}},
      {"E13", "<5, 7>.rd[<0, 0>](x:real^2. <2 * fst(x) + 3 * snd(x), snd(x)>)", {10, 22}},
      {"E14", "grad[3](x:real. let y:real = x * x in y * y)", {108}},
      {"E15", "4.rd[1](x:real. 3)", {0}},
      {"E16", "2.rd[<1, <2, 3>>](x:real * (real * real). fst(x))", {2, 0, 0}},
      {"E17", "<2, 5>.rd[<1, <2, 3>>](x:real * (real * real). snd(x))", {0, 2, 5}},
      {"E18", "(3 * 2).rd[1.5](x:real. x * x)", {18}},
      {"E19", "grad[0.5](x:real. exp(sin(x)))", {e19}},
      {"E20", "().rd[3](x:real. ())", {0}},
      {"E21", "5.rd[()](x:unit. 3)", {}},
      {"E24", "grad[2](x:real. log(x))", {0.5}},
      {"E25b", "grad[2](x:real. 1 / x)", {-0.25}},
      {"E26b", "grad[4](x:real. sqrt(x))", {0.25}},
      {"E29a",
       "letrec pow(p: real * real): real = if snd(p) < 0.5 then 1 else fst(p) * pow(<fst(p), "
       "snd(p) - 1>) in pow(<2, 3>)",
       {8}},
      {"E29b",
       "letrec pow(p: real * real): real = if snd(p) < 0.5 then 1 else fst(p) * pow(<fst(p), "
       "snd(p) - 1>) in grad[<2, 3>](q:real^2. pow(q))",
       {12, 0},
       false},
      {"E31a", "grad[5](x:real. if x + 1 < 0 then x * 2 else x)", {1}},
      {"E31b", "grad[-5](x:real. if x + 1 < 0 then x * 2 else x)", {2}},
  };
  for (const Golden& g : cases) {
    for (DiffMode d : both) {
      if (d == DiffMode::literal && !g.literal_feasible) continue;
      SCOPED_TRACE(std::string(g.id) + " with " + name(d) + ": " + g.source);
      try {
        expect_reals(reals(g.source, d), g.expected);
      } catch (const AdsemError& e) {
        ADD_FAILURE() << e.what();
      }
    }
  }
}

TEST(SimpleDiffGolden, E30DerivativeRecursion) {
  const std::string f = "letrec f(x:real):real = if x < 1 then x * x else "
                        "1.rd[0.5 * x](y:real. f(y)) in ";
  const std::pair<const char*, double> cases[] = {{"0.5", 0.25}, {"-3", 9}, {"1.5", 1.5},
                                                  {"3", 1},      {"5", 0},  {"10", 0}};
  for (DiffMode d : both) {
    for (const auto& [v, want] : cases) {
      // spec §8.2: with the literal Fig. 6, V <= 3 is feasible; 5 and 10 need R-fast
      if (d == DiffMode::literal && want == 0) continue;
      const std::string source = f + "f(" + v + ")";
      SCOPED_TRACE(std::string(name(d)) + ": " + source);
      try {
        expect_reals(reals(source, d), {want});
      } catch (const AdsemError& e) {
        ADD_FAILURE() << e.what();
      }
    }
    EXPECT_EQ(failure(f + "f(1)", d), ErrorKind::domain);
    EXPECT_EQ(failure(f + "f(2)", d), ErrorKind::domain);
  }
  // differentiating f itself adds a level: f'(1.5) = 1
  expect_reals(reals(f + "grad[1.5](x:real. f(x))"), {1});
}

TEST(SimpleDiffGolden, LiteralFig6IsExponentialOnNestedRd) {
  // spec P-1: E8, E10 and E29's gradient do not finish with the literal rules; R-fast needs a
  // few hundred steps
  const char* e8 = "1.rd[2](x:real. 1.rd[x](y:real. 1.rd[y](z:real. z * z * z)))";
  const Outcome fast = evaluate(check_source(e8).term, test::mode(DiffMode::linear));
  EXPECT_LT(fast.steps, 5'000);
  EXPECT_EQ(failure(e8, DiffMode::literal, 200'000), ErrorKind::fuel);
}

TEST(SimpleDiffGolden, E5GradientDescentTraining) {
  std::ifstream in(std::string(ADSEM_SOURCE_DIR) + "/examples/simple_diff/e5_training.ad");
  const std::string source(std::istreambuf_iterator<char>(in), {});
  ASSERT_FALSE(source.empty());
  for (DiffMode d : both) {
    SCOPED_TRACE(name(d));
    const std::vector<double> got = reals(source, d);
    ASSERT_EQ(got.size(), 2u);
    // w: 0 -> 2.4 -> 2.88 -> 2.976 (losses 36, 1.44, 0.0576, 0.002304)
    EXPECT_NEAR(got[0], 2.976, 1e-12);
    EXPECT_NEAR(got[1], 5.952, 1e-12);
  }
}

TEST(SimpleDiffGolden, UndefinedExamples) {
  const std::pair<const char*, ErrorKind> cases[] = {
      {"let relu(x:real):real = if x < 0 then 0 else x in relu(0)", ErrorKind::domain},
      {"let relu(x:real):real = if x < 0 then 0 else x in grad[0](x:real. relu(x))",
       ErrorKind::domain},
      {"().rd[-1](x:real. let u:real = log(x) in ())", ErrorKind::domain}, // E22 (strict let)
      {"grad[-1](x:real. log(x))", ErrorKind::domain},                     // E23
      {"grad[0](x:real. 1 / x)", ErrorKind::domain},                       // E25
      {"grad[0](x:real. sqrt(x))", ErrorKind::domain},                     // E26
      {"letrec pow(p: real * real): real = if snd(p) < 0.5 then 1 else fst(p) * pow(<fst(p), "
       "snd(p) - 1>) in pow(<2, 2.5>)",
       ErrorKind::domain}, // E29: the guard meets 0.5 exactly
      {"grad[-1](x:real. if x + 1 < 0 then x * 2 else x)", ErrorKind::domain},             // E31
      {"letrec loop(x:real):real = loop(x) in loop(1)", ErrorKind::fuel},                  // E27
      {"letrec loop(x:real):real = loop(x) in grad[1](x:real. loop(x))", ErrorKind::fuel}, // E28
  };
  for (DiffMode d : both) {
    for (const auto& [source, kind] : cases) {
      SCOPED_TRACE(std::string(name(d)) + ": " + source);
      EXPECT_EQ(failure(source, d, 200'000), kind);
    }
  }
}

TEST(SimpleDiffGolden, DomainErrorsSayWhatAndWhere) {
  try {
    test::run("let x:real = -1 in\n  log(x)");
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::domain);
    EXPECT_EQ(e.diagnostic().pos, (SourcePos{2, 3}));
    EXPECT_NE(std::string(e.what()).find("log is undefined at -1"), std::string::npos) << e.what();
  }
  try {
    test::run("if 1 < 1 then 0 else 1");
    FAIL();
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::domain);
    EXPECT_NE(std::string(e.what()).find("less is undefined"), std::string::npos) << e.what();
  }
  EXPECT_EQ(failure("1 / 0"), ErrorKind::domain);
}

TEST(SimpleDiffGolden, ExampleFilesEvaluate) {
  const std::pair<const char*, std::vector<double>> files[] = {
      {"e1_perturbation.ad", {1}},
      {"e2_nested_function.ad", {1}},
      {"e3_relu.ad", {0, 3, 0, 1}},
      {"e29_pow.ad", {8, 12, 0}},
      {"e30_derivative_recursion.ad", {0.25, 1.5, 1}},
      {"e10_forward_mode.ad", {2, std::cos(1.0)}},
      {"e4_dprod.ad", {32, 8, 10, 12, 2, 4, 6, 3, 4, 1, 2}},
      {"e29_limited.ad", {12, 0}},
  };
  for (const auto& [file, want] : files) {
    SCOPED_TRACE(file);
    std::ifstream in(std::string(ADSEM_SOURCE_DIR) + "/examples/simple_diff/" + file);
    const std::string source(std::istreambuf_iterator<char>(in), {});
    ASSERT_FALSE(source.empty());
    expect_reals(reals(source), want);
  }
}

} // namespace
} // namespace adsem::simple_diff::golden_test
