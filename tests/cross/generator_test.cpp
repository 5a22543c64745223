// The cross program generator: well typed by construction, reaches every construct, and its
// shrinks are well typed and smaller.
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "generators/cross/programs.hpp"

namespace adsem::cross::generator_test {
namespace {

std::vector<Program> samples(const rc::Gen<Program>& generator, int count) {
  std::vector<Program> out;
  for (int i = 0; i < count; ++i)
    out.push_back(generator(rc::Random(static_cast<std::uint64_t>(i) + 1), i % 51).value());
  return out;
}

std::map<std::string, int> tag_counts(const std::vector<Program>& programs) {
  std::map<std::string, int> counts;
  for (const auto& p : programs)
    for (const auto& tag : constructs(p))
      ++counts[tag];
  return counts;
}

TEST(CrossGenerator, FirstOrderProgramsAreWellTypedAndReachEveryConstruct) {
  const auto programs = samples(first_order_program(), 300);
  for (const auto& p : programs) {
    EXPECT_TRUE(well_typed(p)) << to_string(p);
    EXPECT_GE(p.inputs.size(), 1u);
    EXPECT_LE(p.inputs.size(), 3u);
    for (const auto& tag : constructs(p))
      EXPECT_TRUE(tag != "lambda" && tag != "apply") << to_string(p);
  }
  const auto counts = tag_counts(programs);
  for (const char* tag : {"let", "pair", "fst", "snd", "add", "sub", "mul", "div", "neg", "sin",
                          "cos", "exp", "log", "sqrt", "tanh"})
    EXPECT_GE(counts.count(tag) ? counts.at(tag) : 0, 15) << tag; // >= 5% of 300
}

TEST(CrossGenerator, HigherOrderProgramsReachClosuresCombinatorsAndChurchLists) {
  const auto programs = samples(higher_order_program(), 300);
  int twice_or_compose = 0, church = 0;
  for (const auto& p : programs) {
    EXPECT_TRUE(well_typed(p)) << to_string(p);
    const std::string text = to_string(p);
    // Church lists are let-bound at type (R -> R -> R) -> R -> R.
    church += text.find("(R -> R -> R) -> R -> R") != std::string::npos;
    // twice / compose take a function argument: a λ binding R -> R.
    twice_or_compose += text.find(" : R -> R. (\\c") != std::string::npos;
  }
  EXPECT_GE(church, 15);
  EXPECT_GE(twice_or_compose, 15);
  const auto counts = tag_counts(programs);
  for (const char* tag : {"lambda", "apply", "higher-order-binder", "let", "pair"})
    EXPECT_GE(counts.count(tag) ? counts.at(tag) : 0, 15) << tag;
}

TEST(CrossGenerator, ShrinksAreWellTypedAndSmaller) {
  for (const auto& p : samples(higher_order_program(), 60)) {
    for (const auto& q : simpler(p)) {
      EXPECT_TRUE(well_typed(q)) << to_string(q);
      EXPECT_LE(size_of(q.body), size_of(p.body)) << to_string(p) << " -> " << to_string(q);
      EXPECT_FALSE(q == p);
    }
  }
}

TEST(CrossGenerator, ShrinkingReachesALiteralOrAnInput) {
  // Following the first shrink repeatedly ends in a leaf: shrinking terminates.
  Program p = samples(first_order_program(), 50).back();
  for (int steps = 0; steps < 1000; ++steps) {
    const auto next = simpler(p);
    if (next.empty()) break;
    p = next.front();
  }
  EXPECT_TRUE(simpler(p).empty()) << to_string(p);
  EXPECT_TRUE(p.body.kind == Expr::Kind::var || p.body.kind == Expr::Kind::lit) << to_string(p);
}

TEST(CrossSyntax, TypeCheckerRejectsIllTypedPrograms) {
  const Type R = Type::real();
  EXPECT_FALSE(well_typed(Program{{"x0"}, Expr::var("y")}));                         // unbound
  EXPECT_FALSE(well_typed(Program{{"x0"}, Expr::fst(Expr::var("x0"))}));             // fst of R
  EXPECT_FALSE(well_typed(Program{{"x0"}, Expr::pair(Expr::lit(1), Expr::lit(2))})); // not R
  EXPECT_FALSE(well_typed(
      Program{{"x0"}, Expr::let("y", Type::pair(R, R), Expr::var("x0"), Expr::var("x0"))}));
  EXPECT_FALSE(well_typed(Program{{"x0"}, Expr::app(Expr::var("x0"), Expr::var("x0"))}));
  EXPECT_TRUE(well_typed(Program{
      {"x0"}, Expr::app(Expr::lam("z", R, Expr::prim("sin", {Expr::var("z")})), Expr::var("x0"))}));
}

} // namespace
} // namespace adsem::cross::generator_test
