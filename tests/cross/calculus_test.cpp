// The cross pseudo-calculus: golden embeddings of one program in every calculus's
// surface syntax, each re-parsed and differentiated by that calculus's own mechanism; the kit's
// checks (un-mutated passes with healthy generators, every mutant killed); the counterexample
// report lists the program in every calculus and names the disagreeing mechanisms.
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/cross/embedding.hpp"
#include "properties/cross/mutants.hpp"
#include "support/calculus_checks.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::cross::calculus_test {
namespace {

constexpr std::uint64_t seed = 20261122;

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

const Embedding& embedding(const std::string& calculus) {
  for (const auto& e : embeddings())
    if (e.calculus == calculus) return e;
  throw std::out_of_range(calculus);
}

// let y2 : R * R = (mul(x0, x1), sin(x0)) in sub(add(fst(y2), exp(snd(y2))), -1.5)
// f(x0, x1) = x0 x1 + exp(sin x0) + 1.5; ∇f = (x1 + exp(sin x0) cos x0, x0).
Program golden_first_order() {
  const Type R = Type::real();
  const auto x0 = Expr::var("x0"), x1 = Expr::var("x1"), y = Expr::var("y2");
  return Program{
      {"x0", "x1"},
      Expr::let(
          "y2", Type::pair(R, R), Expr::pair(Expr::prim("mul", {x0, x1}), Expr::prim("sin", {x0})),
          Expr::prim("sub", {Expr::prim("add", {Expr::fst(y), Expr::prim("exp", {Expr::snd(y)})}),
                             Expr::lit(-1.5)}))};
}

TEST(CrossEmbedding, GoldenFirstOrderProgramInEveryCalculus) {
  const Program p = golden_first_order();
  const std::map<std::string, std::string> expected = {
      {"simple-diff", "(xs:real * real. let x0:real = fst(xs) in let x1:real = snd(xs) in "
                      "(let y2:real * real = <mul(<x0, x1>), sin(x0)> in sub(<add(<fst(y2), "
                      "exp(snd(y2))>), (-1.5)>)))"},
      {"perturbative", "\\x0:R. \\x1:R. (let y2 = ((mul (x0, x1)), (sin x0)) in (sub ((add ((pi1 "
                       "y2), (exp (pi2 y2)))), (-1.5))))"},
      {"linear-negation", "\\x0:R. \\x1:R. (let y2 = (mul(x0, x1), sin(x0)) in sub(add((let (pa, "
                          "pb) = y2 in pa), exp((let (pa, pb) = y2 in pb))), (-1.5)))"},
      {"delta-reverse", "\\(x0 : Real, x1 : Real). (let y2 = ((mulR (x0, x1)), (sin x0)) in (subR "
                        "((addR ((fst y2), (exp (snd y2)))), (-1.5))))"},
      {"pullback",
       "\\x0:R. \\x1:R. (let y2 : R * R = <mul(<x0, x1>), sin(x0)> in sub(<add(<(y2).1, "
       "exp((y2).2)>), (-1.5)>))"},
  };
  const double a = 0.5, b = 2.0;
  const double value = a * b + std::exp(std::sin(a)) + 1.5;
  const std::vector<double> gradient = {b + std::exp(std::sin(a)) * std::cos(a), a};
  for (const auto& e : embeddings()) {
    SCOPED_TRACE(e.calculus);
    const std::string source = e.print(p, {});
    EXPECT_EQ(source, expected.at(e.calculus));
    const auto* entry = registry().find(e.calculus);
    ASSERT_NE(entry, nullptr);
    for (const auto& mechanism : e.mechanisms) {
      SCOPED_TRACE(mechanism);
      const auto g = entry->frontend->grad(source, {a, b}, mechanism, {});
      EXPECT_NEAR(g.value, value, 1e-12);
      ASSERT_EQ(g.gradient.size(), 2u);
      EXPECT_NEAR(g.gradient[0], gradient[0], 1e-12);
      EXPECT_NEAR(g.gradient[1], gradient[1], 1e-12);
    }
  }
}

TEST(CrossEmbedding, ThreeInputsAndNestedTuples) {
  // snd(fst(((x0, x2), x1))) * x1 + (-2) = x2 x1 - 2: gradient (0, x2, x1), in input order.
  const Type R = Type::real();
  const Program p{
      {"x0", "x1", "x2"},
      Expr::prim(
          "add",
          {Expr::prim("mul", {Expr::snd(Expr::fst(Expr::pair(
                                  Expr::pair(Expr::var("x0"), Expr::var("x2")), Expr::var("x1")))),
                              Expr::var("x1")}),
           Expr::lit(-2)})};
  for (const auto& e : embeddings())
    for (const auto& mechanism : e.mechanisms) {
      SCOPED_TRACE(e.calculus + "/" + mechanism);
      const auto g = registry()
                         .find(e.calculus)
                         ->frontend->grad(e.print(p, {}), {1.5, -0.5, 3.0}, mechanism, {});
      EXPECT_DOUBLE_EQ(g.value, -3.5);
      EXPECT_EQ(g.gradient, (std::vector<double>{0.0, 3.0, -0.5}));
    }
}

// twice (\z. z * x0) 3 + fold [x0, 2] with (\a. \b. a * b) from 1, i.e. 3 x0^2 + 2 x0:
// gradient 6 x0 + 2.
Program golden_higher_order() {
  const Type R = Type::real(), RR = Type::function(R, R);
  const Type RRR = Type::function(R, RR), list = Type::function(RRR, RR);
  const auto v = [](const char* x) { return Expr::var(x); };
  const Expr twice =
      Expr::lam("f", RR, Expr::lam("t", R, Expr::app(v("f"), Expr::app(v("f"), v("t")))));
  const Expr scaled = Expr::lam("z", R, Expr::prim("mul", {v("z"), v("x0")}));
  const Expr church =
      Expr::lam("c", RRR,
                Expr::lam("n", R,
                          Expr::app(Expr::app(v("c"), v("x0")),
                                    Expr::app(Expr::app(v("c"), Expr::lit(2)), v("n")))));
  const Expr times = Expr::lam("a", R, Expr::lam("b", R, Expr::prim("mul", {v("a"), v("b")})));
  return Program{{"x0"},
                 Expr::prim("add", {Expr::app(Expr::app(twice, scaled), Expr::lit(3)),
                                    Expr::let("l", list, church,
                                              Expr::app(Expr::app(v("l"), times), Expr::lit(1)))})};
}

TEST(CrossEmbedding, GoldenHigherOrderProgramInTheCalculiWithFunctions) {
  const Program p = golden_higher_order();
  ASSERT_TRUE(well_typed(p));
  const double x = 1.25;
  EXPECT_THROW(embedding("simple-diff").print(p, {}), AdsemError); // no λ in simple-diff
  for (const auto& e : embeddings()) {
    if (!e.has_functions) continue;
    for (const auto& mechanism : e.mechanisms) {
      SCOPED_TRACE(e.calculus + "/" + mechanism + ": " + e.print(p, {}));
      try {
        const auto g =
            registry().find(e.calculus)->frontend->grad(e.print(p, {}), {x}, mechanism, {});
        EXPECT_NEAR(g.value, 3 * x * x + 2 * x, 1e-12);
        EXPECT_NEAR(g.gradient.at(0), 6 * x + 2, 1e-12);
      } catch (const AdsemError& error) {
        // Pullback reduction may stop at a stuck normal form (seed 000 Remark 3.6), never
        // anywhere else.
        EXPECT_EQ(e.calculus, "pullback") << error.what();
        EXPECT_NE(std::string(error.what()).find("did not reach a covector literal"),
                  std::string::npos)
            << error.what();
      }
    }
  }
}

TEST(CrossCalculus, IsRegisteredWithBothPropertiesAndItsMutants) {
  const auto* entry = registry().find("cross");
  ASSERT_NE(entry, nullptr);
  ASSERT_EQ(entry->properties.size(), 2u);
  EXPECT_EQ(entry->properties[0].name, "cross/gradient-agreement");
  EXPECT_EQ(entry->properties[1].name, "cross/higher-order-gradient-agreement");
  EXPECT_GE(entry->mutants.size(), 2u);
}

TEST(CrossCalculus, UnmutatedCrossPassesEveryProperty) {
  testing::expect_unmutated_calculus_passes(registry(), "cross", 120, seed);
}

TEST(CrossCalculus, EveryMutantIsKilledByGradientAgreement) {
  testing::expect_every_mutant_killed(registry(), "cross", 150, seed);
}

TEST(CrossCalculus, EveryMechanismOfEveryFrontEndAgreesUnderAllMechanisms) {
  // --set cross.all-mechanisms=1: 17 mechanisms on first-order programs (bp and forward of
  // linear-negation on tuple-free ones only).
  props::CampaignOptions options;
  options.calculi = {"cross"};
  options.properties = {"cross/gradient-agreement"};
  options.trials = 15;
  options.seed = seed;
  options.overrides = {{"cross.all-mechanisms", "1"}};
  const auto result = props::run_campaign(registry(), options);
  for (const auto& record : result.counterexamples)
    ADD_FAILURE() << reports::counterexample_text(record);
  ASSERT_EQ(result.properties.size(), 1u);
  EXPECT_EQ(result.properties[0].passed, 15);

  // Under a mutant the report lists every mechanism's answer.
  options.mutant = sub_reversed_mutant;
  options.trials = 150;
  const auto killed = props::run_campaign(registry(), options);
  ASSERT_EQ(killed.counterexamples.size(), 1u);
  std::string trace;
  for (const auto& line : killed.counterexamples[0].trace)
    trace += line + "\n";
  for (const char* answer :
       {"rd-literal (simple-diff)", "small-step (perturbative)", "injection (linear-negation)",
        "R-array (delta-reverse)", "R1 (delta-reverse)", "R2 (delta-reverse)",
        "pullback-literal-anf (pullback)"})
    EXPECT_NE(trace.find(answer), std::string::npos) << answer << "\n" << trace;
}

TEST(CrossCalculus, CounterexampleShowsTheProgramInEveryCalculusAndNamesTheDisagreeingOnes) {
  const auto result = testing::run_calculus(registry(), "cross", 150, seed, sub_reversed_mutant,
                                            {"cross/gradient-agreement"});
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const auto& record = result.counterexamples.front();
  EXPECT_EQ(record.outcome, "fail");
  EXPECT_NE(record.message.find("disagree with the model: delta-reverse/R, delta-reverse/F"),
            std::string::npos)
      << record.message;
  std::string trace;
  for (const auto& line : record.trace)
    trace += line + "\n";
  for (const char* calculus :
       {"simple-diff:", "perturbative:", "linear-negation:", "delta-reverse:", "pullback:"})
    EXPECT_NE(trace.find(calculus), std::string::npos) << calculus << "\n" << trace;
  for (const char* answer :
       {"rd (simple-diff)", "pushforward (perturbative)", "backprop (linear-negation)",
        "R (delta-reverse)", "F (delta-reverse)", "pullback (pullback)", "model (shared)",
        "finite differences", "interval enclosure"})
    EXPECT_NE(trace.find(answer), std::string::npos) << answer << "\n" << trace;
  EXPECT_NE(trace.find("DISAGREES"), std::string::npos) << trace;
  EXPECT_NE(trace.find("subR"), std::string::npos) << trace; // the mutated embedding is shown
  EXPECT_NE(trace.find("disagreeing: delta-reverse/R, delta-reverse/F"), std::string::npos)
      << trace;
}

} // namespace
} // namespace adsem::cross::calculus_test
