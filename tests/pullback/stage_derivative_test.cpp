// A stage's derivative (semantics/pullback/stage_derivative.hpp) against the derivative it
// replaced, model::directional_derivative of ⟦λx.P⟧ perturbing the whole stage tuple: the same
// values bit for bit (tags and coefficients; a passed-through x's tangent is the direction
// itself, the whole perturbation's up to the sign of a zero), the same tags drawn, the same work
// units and nesting, and the same errors. Rule 8 (seed 000 Fig. 3 L240) makes the stages ⟨x, Q⟩
// whose tuple x holds the earlier intermediates; a functional query puts functions into that tuple.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "semantics/core/pushforward.hpp"
#include "semantics/pullback/denotation.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/stage_derivative.hpp"

namespace adsem::pullback::stage_derivative_test {
namespace {

using V = model::Value<double>;

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

enum class Zeros { signed_, unsigned_ };

// Equal values: reals with the same tags and coefficients (bit for bit, or as numbers so that
// −0 = +0), functions equal at a few real arguments (each application draws its tags from its
// own context).
void expect_same(const V& a, const V& b, const std::string& where, Zeros zeros = Zeros::signed_) {
  ASSERT_EQ(a.kind(), b.kind()) << where;
  switch (a.kind()) {
  case model::ValueKind::real: {
    const auto& x = a.real();
    const auto& y = b.real();
    ASSERT_EQ(x.tags().size(), y.tags().size()) << where;
    for (std::size_t i = 0; i < x.tags().size(); ++i)
      EXPECT_EQ(x.tags()[i], y.tags()[i]) << where;
    ASSERT_EQ(x.coefficients().size(), y.coefficients().size()) << where;
    for (std::size_t i = 0; i < x.coefficients().size(); ++i)
      EXPECT_TRUE(zeros == Zeros::signed_ ? same_bits(x.coefficients()[i], y.coefficients()[i])
                                          : x.coefficients()[i] == y.coefficients()[i])
          << where << ": coefficient " << i << " " << x.coefficients()[i] << " vs "
          << y.coefficients()[i];
    return;
  }
  case model::ValueKind::tuple:
    ASSERT_EQ(a.items().size(), b.items().size()) << where;
    for (std::size_t i = 0; i < a.items().size(); ++i)
      expect_same(a.items()[i], b.items()[i], where + "." + std::to_string(i + 1), zeros);
    return;
  case model::ValueKind::function:
    for (const double z : {0.5, -1.25})
      expect_same(a(V(z)), b(V(z)), where + " at " + std::to_string(z), zeros);
    return;
  default:
    return;
  }
}

struct Outcome {
  std::optional<V> value;
  std::string error;
  model::Tag next_tag = 0;
  long work = 0;
  int depth = 0;
};

// Runs `derive` in a fresh context and records its value or error and what it consumed.
template <class Derive> Outcome run(const DenoteContext& context, Derive derive) {
  Outcome out;
  try {
    out.value = derive();
  } catch (const AdsemError& error) {
    out.error = error.what();
  }
  out.work = context.limits.work->used();
  out.depth = context.limits.depth->depth;
  out.next_tag = context.diff.fresh_tag();
  return out;
}

// The stage λx.P (`stage` parses to that abstraction) in env, at point along v: the stage
// derivative and the whole-tuple derivative agree.
void expect_stage_matches(const std::string& stage, const model::Env<double>& env, const V& point,
                          const V& v, const std::string& where,
                          const std::map<std::string, Type>& free = {},
                          CheckedShapes* checked = nullptr) {
  const Term lambda = parse(stage, free);
  ASSERT_EQ(lambda->kind, Kind::lam) << where;
  const Term& body = lambda->kids[0];
  const auto shape = stage_shape(body, lambda->name);
  ASSERT_NE(shape, nullptr) << where << ": no stage shape";

  DenoteContext staged;
  staged.checked_shapes = checked;
  const Outcome a = run(staged, [&] { return stage_derivative(*shape, env, point, v, staged); });

  // F as the pullback clause of ⟦−⟧ builds it (denotation.hpp, Kind::pullback)
  const DenoteContext whole;
  const V f = V::function([&](const V& x) {
    return denote<double>(body, model::extend<double>(env, lambda->name, x), whole);
  });
  const Outcome b =
      run(whole, [&] { return model::directional_derivative(f, point, v, whole.diff); });

  EXPECT_EQ(a.error, b.error) << where;
  ASSERT_EQ(a.value.has_value(), b.value.has_value()) << where;
  if (!a.value) return;
  if (!shape->passes_through) {
    expect_same(*a.value, *b.value, where);
    // a function in the result draws its tags when applied (extract's renaming)
    EXPECT_EQ(staged.diff.fresh_tag(), whole.diff.fresh_tag()) << where << ": tags drawn by calls";
    return;
  }
  // ⟨x, Q⟩: Q's tangent as the whole perturbation gives it, x's tangent v itself
  expect_same(a.value->items()[1], b.value->items()[1], where + " Q");
  EXPECT_EQ(staged.diff.fresh_tag(), whole.diff.fresh_tag()) << where << ": tags drawn by calls";
  expect_same(a.value->items()[0], v, where + " x, the direction");
  // the whole perturbation's x tangent is v up to the sign of a zero, its functions rewrapped
  expect_same(a.value->items()[0], b.value->items()[0], where + " x", Zeros::unsigned_);
  EXPECT_EQ(a.work, b.work) << where << ": work units";
  EXPECT_EQ(a.depth, b.depth) << where << ": nesting left";
  EXPECT_EQ(a.next_tag, b.next_tag) << where << ": tags drawn";
}

TEST(StageDerivative, FirstOrderStagesMatchTheWholePerturbation) {
  // Rule 8's shapes: ⟨x, Q⟩ reading one or two items, nested paths, a read of a whole item, a
  // binder shadowing x, and a reader that does not pass x through.
  const std::vector<std::string> stages = {
      "\\x:(R * R) * R. <x, sin(x.2)>",
      "\\x:(R * R) * R. <x, mult(<x.1.1, x.2>)>",
      "\\x:(R * R) * R. <x, mult(<x.1.2, x.1.2>)>",
      "\\x:(R * R) * R. <x, <x.1, cos(x.2)>>",
      "\\x:(R * R) * R. <x, (\\x:R. sin(x)) x.1.1>",
      "\\x:(R * R) * R. mult(<x.1.1, x.2>)",
      "\\x:(R * R) * R. <x, 0.5>",
  };
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  const auto draw = [&] { return V::pair(V::pair(V(real(rng)), V(real(rng))), V(real(rng))); };
  for (const std::string& stage : stages) {
    for (int probe = 0; probe < 4; ++probe) {
      const V point = draw();
      // the last direction has zeros of both signs (perturb drops the tag of an exact zero)
      const V v = probe < 3 ? draw() : V::pair(V::pair(V(0.0), V(-0.0)), V(real(rng)));
      expect_stage_matches(stage, nullptr, point, v, stage + " probe " + std::to_string(probe));
    }
  }
}

TEST(StageDerivative, StageReadingAFunctionItem) {
  // A functional query's stage tuple holds a function; the stage applies it (and passes it
  // through, perturbed and extracted as a function).
  const V square = V::function([](const V& z) { return V(z.real() * z.real()); });
  const V twice = V::function([](const V& z) { return V(z.real() * 2.0); });
  const V point = V::pair(square, V::pair(V(0.5), V(-1.5)));
  const V v = V::pair(twice, V::pair(V(1.0), V(0.25)));
  expect_stage_matches("\\x:(R -> R) * R * R. <x, x.1 x.2.1>", nullptr, point, v, "applies x.1");
  expect_stage_matches("\\x:(R -> R) * R * R. <x, sin(x.2.2)>", nullptr, point, v, "passes x.1 by");
  expect_stage_matches("\\x:(R -> R) * R * R. x.1 (x.1 x.2.2)", nullptr, point, v,
                       "applies x.1 twice, not passed through");
  // A function from the environment applied to an item.
  const model::Env<double> env = model::extend<double>(nullptr, "phi", square);
  expect_stage_matches("\\x:R * R. <x, phi x.2>", env, V::pair(V(0.3), V(1.7)),
                       V::pair(V(-0.5), V(2.0)), "environment function",
                       {{"phi", arrow(real_type(), real_type())}});
}

TEST(StageDerivative, ShapeErrorsAreTheWholePerturbations) {
  // A direction of another shape: the error model::perturb throws, before the body runs.
  const V point = V::pair(V::pair(V(1.0), V(2.0)), V(3.0));
  expect_stage_matches("\\x:(R * R) * R. <x, sin(x.2)>", nullptr, point,
                       V::pair(V::tuple_of(3, [](std::size_t) { return V(1.0); }), V(1.0)),
                       "an unread item of another shape");
  expect_stage_matches("\\x:(R * R) * R. mult(<x.1.1, x.2>)", nullptr, point,
                       V::tuple_of(3, [](std::size_t) { return V(1.0); }),
                       "a tuple of another length");
}

TEST(StageDerivative, ChainedStagesSkipThePairCheckedBefore) {
  // Rule 8's next stage runs at ⟨x, Q x⟩ along ⟨v, DQ·v⟩: its first items are the point and
  // direction checked last, not walked again; its own item is checked as before, errors included.
  CheckedShapes checked;
  const V point = V::pair(V::pair(V(1.0), V(2.0)), V(3.0));
  const V v = V::pair(V::pair(V(0.5), V(-1.0)), V(2.0));
  const std::string stage = "\\x:(R * R) * R. <x, sin(x.2)>";
  const std::string next = "\\x:((R * R) * R) * R. <x, mult(<x.1.2, x.2>)>";
  const auto tuple = [](const V& t) { return std::get<model::Tuple<double>>(t.node()); };
  expect_stage_matches(stage, nullptr, point, v, "the first stage", {}, &checked);
  EXPECT_TRUE(checked.passed(tuple(point), tuple(v)));
  expect_stage_matches(next, nullptr, V::pair(point, V(0.25)), V::pair(v, V::pair(V(1.0), V(1.0))),
                       "the next stage, its own item of another shape", {}, &checked);
  expect_stage_matches(stage, nullptr, point, v, "the first stage again", {}, &checked);
  const V next_point = V::pair(point, V(0.25)), next_v = V::pair(v, V(1.5));
  expect_stage_matches(next, nullptr, next_point, next_v, "the next stage", {}, &checked);
  EXPECT_TRUE(checked.passed(tuple(next_point), tuple(next_v)));
  // another tuple of the same numbers is walked (it is not the pair checked last)
  EXPECT_FALSE(checked.passed(tuple(V::pair(point, V(0.25))), tuple(next_v)));
}

TEST(StageDerivative, NoShapeWhereXIsUsedWhole) {
  const Term lambda = parse("\\x:R * R. <x.1, (\\y:R * R. y.2) x>");
  EXPECT_EQ(stage_shape(lambda->kids[0], lambda->name), nullptr);
}

} // namespace
} // namespace adsem::pullback::stage_derivative_test
