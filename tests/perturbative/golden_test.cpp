// Golden tests: every worked example of spec §8 (values from the spec, checked there by hand and
// by the prototype), through the normal form (the calculus's own rules) and through the model.
#include <gtest/gtest.h>

#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/mutants.hpp"
#include "semantics/perturbative/constants.hpp"
#include "semantics/perturbative/denotation.hpp"
#include "semantics/perturbative/strategy.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative::golden_test {
namespace {

std::vector<double> nf_reals(const std::string& source, const std::string& mutant = "") {
  const auto run = normalise(parse_closed(source), *semantics_for(mutant).rules);
  EXPECT_TRUE(is_numeric_value(run.result)) << source << " => " << print(run.result);
  return numeric_reals(run.result);
}
std::vector<double> model_reals(const std::string& source,
                                model::PerturbationMode mode = model::PerturbationMode::correct) {
  DenoteContext context{model::DiffContext(mode)};
  return model::flatten_primal(denote<double>(parse_closed(source), nullptr, context));
}

struct Golden {
  std::string id, source;
  std::vector<double> expected;
};

const std::vector<Golden>& goldens() {
  static const std::vector<Golden> g = {
      {"E1", "T (\\x:R. x*x + 1) (1, 3)", {6, 10}},
      {"E3", "pi1 (T (\\x:R. x * pi1 (T (\\y:R. x) (1, 2))) (1, 1))", {0}},
      {"E4", "T (\\x:R. (x + 1) * ((x + 2) * (x + 3))) (1, 0)", {11, 6}},
      {"M1", "pi1 (T sin (1, 0.5))", {0.8775825618903728}},
      {"M2", "pi1 (T (\\x:R. sin (sin x)) (1, 1))", {0.36003948908962097}},
      {"M3", "T (\\x:R. x * sin x) (2, 1)", {2.7635465813520725, 0.8414709848078965}},
      {"M4", "T (\\p:R*R. pi1 p + pi2 p) ((1, 2), (3, 4))", {3, 7}},
      {"M5", "T mul ((1, 0), (3, 4))", {4, 12}},
      {"M6", "pi1 (T (\\x:R. x * pi1 (T (\\y:R. x + y) (1, 1))) (1, 1))", {1}},
      {"M7", "pi1 (T (\\x:R. x * pi1 (T (\\y:R. x * y) (1, 2))) (1, 1))", {2}},
      {"M8", "pi1 (T (\\x:R. pi1 (T exp (1, x))) (1, 1))", {2.718281828459045}},
      {"M9", "let D = \\f:R->R. \\a:R. pi1 (T f (1, a)) in D (D (\\x:R. x*x*x)) 2", {12}},
      {"M10",
       "T (T sin) ((0, 1), (1, 0.5))",
       {-0.479425538604203, 0.8775825618903728, 0.8775825618903728, 0.479425538604203}},
      {"M11",
       "let twice = \\f:R->R. \\x:R. f (f x) in let sq = \\x:R. x*x in let one = \\x:R. 1 in "
       "(pi1 (T twice (one, sq)) 3, pi2 (T twice (one, sq)) 3)",
       {19, 81}},
      {"M12",
       "let twice = \\f:R->R. \\x:R. f (f x) in pi1 (T (twice sin) (1, 1))",
       {0.36003948908962097}},
      {"M13a", "let h = pi1 (T (\\x:R. \\y:R. x*y) (1, 3)) in h 5", {5}},
      {"M13b", "(pi2 (T (\\x:R. \\y:R. x*y) (1, 3))) 5", {15}},
      {"M14", "T (\\f:R->R. f 2) ((\\x:R. x), sin)", {2, 0.9092974268256817}},
      {"M15",
       "let s = \\u:R. \\f:R->R. \\x:R. f (x + u) in let g = pi1 (T s (1, 0)) in g (g exp) 1",
       {2.718281828459045}},
      {"M16", "T (\\x:R. exp (neg x)) (2, 0)", {-2, 1}},
      {"M17", "T (\\x:R. (sin + cos) x) (1, 0)", {1, 1}},
      {"M18", "T (\\x:R. (0 : R -> R) x) (1, 2)", {0, 0}},
      {"M19", "T (\\x:R. x + x) (1, 5)", {2, 10}},
      {"M20", "(\\f:R->R. f 3) (sin + cos)", {-0.8488724885405782}},
  };
  return g;
}

void expect_close(const std::vector<double>& actual, const std::vector<double>& expected,
                  const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-12 * std::max(1.0, std::abs(expected[i])))
        << what << " component " << i;
}

TEST(PerturbativeGolden, EveryWorkedExampleOfSection8ByNormalForm) {
  for (const Golden& g : goldens())
    expect_close(nf_reals(g.source), g.expected, g.id + " (normal form)");
}

TEST(PerturbativeGolden, EveryWorkedExampleOfSection8ByTheModel) {
  for (const Golden& g : goldens())
    expect_close(model_reals(g.source), g.expected, g.id + " (model)");
}

TEST(PerturbativeGolden, SmallStepAgreesOnTheWorkedExamples) {
  for (const Golden& g : goldens()) {
    const auto run = reduce_small_step(parse_closed(g.source), *paper_rules());
    expect_close(numeric_reals(run.result), g.expected, g.id + " (small-step)");
  }
}

// Spec §5.3 negative controls: the broken model modes reproduce the wrong answers of §8.
TEST(PerturbativeGolden, NegativeControlsOfTheModelFailTheConfusionExamples) {
  using model::PerturbationMode;
  EXPECT_DOUBLE_EQ(model_reals(goldens()[1].source, PerturbationMode::untagged)[0], 1.0); // E3
  EXPECT_DOUBLE_EQ(model_reals(goldens()[8].source, PerturbationMode::untagged)[0], 2.0); // M6
  EXPECT_DOUBLE_EQ(model_reals(goldens()[9].source, PerturbationMode::untagged)[0], 3.0); // M7
  EXPECT_DOUBLE_EQ(model_reals(goldens()[18].source, PerturbationMode::fresh_tag_no_swap)[0], 0.0);
}

// Spec §8 "Normal forms worth pinning down" and SYN-8.
TEST(PerturbativeGolden, SmallFixedNormalForms) {
  const auto nf = [](const std::string& s) {
    return canonical_key(normalise(parse_closed(s), *paper_rules()).result);
  };
  const auto key = [](const std::string& s) { return canonical_key(parse_closed(s)); };
  EXPECT_EQ(nf("T (\\x:R. x)"), key("\\x:T R. x"));
  EXPECT_EQ(nf("T (\\x:R. 1)"), key("\\x:T R. (in2 1 : R * R)"));
  EXPECT_EQ(nf("T sin"), key("\\p:T R. (mul (pi1 p, cos (pi2 p)), sin (pi2 p))"));
  EXPECT_EQ(
      nf("T (\\x:R. \\y:R. x*y)"),
      key("\\x:T R. ((\\y:R. mul (pi1 x, y)) + (\\y:R. mul (0, pi2 x)), \\y:R. mul (pi2 x, y))"));
  EXPECT_EQ(nf("T (\\x:R. x*x + 1)"),
            key("\\x:T R. (mul (pi1 x, pi2 x) + mul (pi1 x, pi2 x), mul (pi2 x, pi2 x) + 1)"));
}

// ν merges L[r1] + L[r2] modulo α (seed 004, L141, L165-185): the binders of a context of λ and
// ι ending in a numeral are never referenced. A campaign found primal-is-substitution failing on
// NF(π2(T_x M)) = λx'.2 against NF(M[π2 x/x]) = λx'.1 + λx.1 while the merge compared names.
TEST(PerturbativeGolden, NuMergesNumeralsUnderAlphaEquivalentBinders) {
  const auto nf = [](const std::string& s) {
    return canonical_key(normalise(parse_closed(s), *paper_rules()).result);
  };
  const auto key = [](const std::string& s) { return canonical_key(parse_closed(s)); };
  EXPECT_EQ(nf("(\\x:R * R. 1) + (\\y:R * R. 1)"), key("\\z:R * R. 2"));
  EXPECT_EQ(nf("(\\x:R. (in1 3 : R * R)) + (\\y:R. (in1 3 : R * R))"),
            key("\\x:R. (in1 6 : R * R)"));
  // the same binder type merges; a different injection is a different context: no merge
  EXPECT_EQ(nf("(\\x:R. 1) + (\\y:R. 1)"), key("\\x:R. 2"));
  EXPECT_NE(nf("(\\x:R. (in1 3 : R * R)) + (\\y:R. (in2 3 : R * R))"),
            key("\\x:R. (in1 6 : R * R)"));
}

// Open terms: f free is stuck (spec §4.1 "no rule for T applied to a non-λ").
TEST(PerturbativeGolden, TOfAFreeVariableIsStuckAndChainRuleVisible) {
  const Context gamma = {{"f", arrow_type(real_type(), real_type())}};
  const auto parse = [&](const std::string& s) { return parse_term(s, constant_types(), gamma); };
  const Term stuck = parse("T f (1, 2)");
  EXPECT_EQ(canonical_key(normalise(stuck, *paper_rules()).result), canonical_key(stuck));
  EXPECT_EQ(canonical_key(normalise(parse("T (\\x:R. f (f x))"), *paper_rules()).result),
            canonical_key(parse("\\x:T R. (pi1 (T f (pi1 (T f x), f (pi2 x))), f (f (pi2 x)))")));
}

TEST(PerturbativeGolden, GradThroughTheFrontendUsesT) {
  const Frontend frontend;
  const auto g = frontend.grad("\\x:R. \\y:R. x * sin y", {2, 0.5}, "", {});
  EXPECT_NEAR(g.value, 2 * std::sin(0.5), 1e-15);
  ASSERT_EQ(g.gradient.size(), 2u);
  EXPECT_NEAR(g.gradient[0], std::sin(0.5), 1e-15);
  EXPECT_NEAR(g.gradient[1], 2 * std::cos(0.5), 1e-15);
  const auto t = frontend.grad("\\p:R*R. pi1 p * pi2 p", {3, 4}, "small-step", {});
  EXPECT_EQ(t.gradient, (std::vector<double>{4, 3}));
}

} // namespace
} // namespace adsem::perturbative::golden_test
