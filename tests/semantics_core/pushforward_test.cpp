// The model's pushforward 𝒯 (manzyuk spec §5.3) on values built directly, the worked examples of
// manzyuk spec §8, and the negative controls: each confusion example gives the wrong answer the
// spec predicts in the mode that omits the cure.
#include "semantics/core/finite_difference.hpp"
#include "semantics/core/primitives.hpp"
#include "semantics/core/probe.hpp"
#include "semantics/core/pushforward.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace adsem::model::pushforward_test {
namespace {

using V = Value<double>;
using Mode = PerturbationMode;

constexpr double e = 2.718281828459045;

V fn(Function<double> f) {
  return V::function(std::move(f));
}
V prim(std::string_view name) {
  const Primitive& p = primitives().at(name);
  return fn(
      [&p](const V& x) { return V(p.apply1<Dual<double>>(std::vector<Dual<double>>{x.real()})); });
}
V add(const V& a, const V& b) {
  return V(a.real() + b.real());
}
V mul(const V& a, const V& b) {
  return V(a.real() * b.real());
}
// D(f, a) = π1(𝒯 f (1, a)) (manzyuk §8 E2), a term-level operator: it draws its tag at call time.
V D(const V& f, const V& a, const DiffContext& context) {
  return derivative(f, a, context);
}
double real(const V& v) {
  EXPECT_FALSE(has_perturbations(v)) << "tag leakage: " << to_string(v);
  return v.real().primal();
}

// M6: D(λx. x · D(λy. x + y)(1))(1) = 1; one ε gives 2 (Siskind–Pearlmutter).
double m6(const DiffContext& ctx) {
  const V outer = fn([ctx](const V& x) {
    const V inner = fn([x](const V& y) { return add(x, y); });
    return mul(x, D(inner, V(1.0), ctx));
  });
  return real(D(outer, V(1.0), ctx));
}

TEST(NestedDerivatives, M6IsOneAndTheUntaggedControlGivesTwo) {
  EXPECT_EQ(m6(DiffContext(Mode::correct)), 1.0);
  EXPECT_EQ(m6(DiffContext(Mode::fresh_tag_no_swap)), 1.0); // first order: renaming not needed
  EXPECT_EQ(m6(DiffContext(Mode::untagged)), 2.0);
}

TEST(NestedDerivatives, PaperE3AndM7M8) {
  // E3 (manzyuk L49-54): D(λx. x · D(λy. x)(2))(1) = 0; single ε gives 1.
  auto e3 = [](const DiffContext& ctx) {
    const V outer =
        fn([ctx](const V& x) { return mul(x, D(fn([x](const V&) { return x; }), V(2.0), ctx)); });
    return real(D(outer, V(1.0), ctx));
  };
  EXPECT_EQ(e3(DiffContext()), 0.0);
  EXPECT_EQ(e3(DiffContext(Mode::untagged)), 1.0);
  // M7: D(λx. x · D(λy. x·y)(2))(1) = 2; single ε gives 3.
  auto m7 = [](const DiffContext& ctx) {
    const V outer = fn([ctx](const V& x) {
      return mul(x, D(fn([x](const V& y) { return mul(x, y); }), V(2.0), ctx));
    });
    return real(D(outer, V(1.0), ctx));
  };
  EXPECT_EQ(m7(DiffContext()), 2.0);
  EXPECT_EQ(m7(DiffContext(Mode::untagged)), 3.0);
  // M8: D(λx. D(exp, x))(1) = e; single ε gives 0.
  auto m8 = [](const DiffContext& ctx) {
    const V outer = fn([ctx](const V& x) { return D(prim("exp"), x, ctx); });
    return real(D(outer, V(1.0), ctx));
  };
  EXPECT_NEAR(m8(DiffContext()), e, 1e-15);
  EXPECT_EQ(m8(DiffContext(Mode::untagged)), 0.0);
  // M9: D is a term: (D (D (λx. x·x·x))) 2 = 12.
  const DiffContext ctx;
  const V d = fn([ctx](const V& f) { return fn([f, ctx](const V& a) { return D(f, a, ctx); }); });
  const V cube = fn([](const V& x) { return mul(mul(x, x), x); });
  EXPECT_EQ(real(d(d(cube))(V(2.0))), 12.0);
}

// M15: s = λu.λf.λx. f(x + u); g = π1(𝒯 s (1, 0)) (function-valued); g (g exp) 1 = exp''(1) = e.
double m15(const DiffContext& ctx) {
  const V s = fn([](const V& u) {
    return fn([u](const V& f) { return fn([u, f](const V& x) { return f(add(x, u)); }); });
  });
  const V g = pushforward(s, V(1.0), V(0.0), ctx).first();
  return real(g(g(prim("exp")))(V(1.0)));
}

TEST(NestedDerivatives, M15NeedsTagRenaming) {
  EXPECT_NEAR(m15(DiffContext(Mode::correct)), e, 1e-15);
  EXPECT_EQ(m15(DiffContext(Mode::fresh_tag_no_swap)), 0.0);
  EXPECT_EQ(m15(DiffContext(Mode::untagged)), 0.0);
}

TEST(Pushforward, WorkedExamplesOfManzyukSection8) {
  const DiffContext ctx;
  // E1: T(λx. x*x + 1)(1, 3) = (6, 10).
  const V e1 =
      pushforward(fn([](const V& x) { return add(mul(x, x), V(1.0)); }), V(1.0), V(3.0), ctx);
  EXPECT_EQ(real(e1.first()), 6.0);
  EXPECT_EQ(real(e1.second()), 10.0);
  // M3: T(λx. x * sin x)(2, 1) = (2(sin 1 + cos 1), sin 1).
  const V m3 =
      pushforward(fn([](const V& x) { return mul(x, prim("sin")(x)); }), V(2.0), V(1.0), ctx);
  EXPECT_NEAR(real(m3.first()), 2.7635465813520725, 1e-15);
  EXPECT_NEAR(real(m3.second()), 0.8414709848078965, 1e-16);
  // M4: T(λp. π1 p + π2 p)((1, 2), (3, 4)) = (3, 7).
  const V m4 = pushforward(fn([](const V& p) { return add(p.first(), p.second()); }),
                           V::pair(1.0, 2.0), V::pair(3.0, 4.0), ctx);
  EXPECT_EQ(real(m4.first()), 3.0);
  EXPECT_EQ(real(m4.second()), 7.0);
  // M10: T(T sin)((0, 1), (1, 0.5)).
  const V tsin = pushforward(prim("sin"), ctx);
  const V m10 = pushforward(tsin, V::pair(0.0, 1.0), V::pair(1.0, 0.5), ctx);
  EXPECT_NEAR(real(m10.first().first()), -0.479425538604203, 1e-15);
  EXPECT_NEAR(real(m10.first().second()), 0.8775825618903728, 1e-15);
  EXPECT_NEAR(real(m10.second().first()), 0.8775825618903728, 1e-15);
  EXPECT_NEAR(real(m10.second().second()), 0.479425538604203, 1e-15);
}

TEST(Pushforward, HigherOrderValues) {
  const DiffContext ctx;
  const V twice = fn([](const V& f) { return fn([f](const V& x) { return f(f(x)); }); });
  const V sq = fn([](const V& x) { return mul(x, x); });
  const V one = fn([](const V&) { return V(1.0); });
  // M11: the pushforward OF twice in the direction of a function: (19, 81) at 3.
  const V m11 = pushforward(twice, one, sq, ctx);
  EXPECT_EQ(real(m11.first()(V(3.0))), 19.0);
  EXPECT_EQ(real(m11.second()(V(3.0))), 81.0);
  // M12: through twice: D(twice sin)(1) = cos(sin 1) cos 1.
  EXPECT_NEAR(real(D(twice(prim("sin")), V(1.0), ctx)), 0.36003948908962097, 1e-15);
  // M13: function-valued tangent: π1(T(λx.λy. x*y)(1, 3)) 5 = 5, primal 15.
  const V curried = fn([](const V& x) { return fn([x](const V& y) { return mul(x, y); }); });
  const V m13 = pushforward(curried, V(1.0), V(3.0), ctx);
  EXPECT_EQ(real(m13.first()(V(5.0))), 5.0);
  EXPECT_EQ(real(m13.second()(V(5.0))), 15.0);
  // M14: T(λf. f 2)(id, sin) = (2, sin 2).
  const V m14 = pushforward(fn([](const V& f) { return f(V(2.0)); }),
                            fn([](const V& x) { return x; }), prim("sin"), ctx);
  EXPECT_EQ(real(m14.first()), 2.0);
  EXPECT_NEAR(real(m14.second()), 0.9092974268256817, 1e-16);
}

TEST(Pushforward, PerturbExtractSwapAtEveryType) {
  const DiffContext ctx;
  const Tag t = ctx.fresh_tag(), u = ctx.fresh_tag();
  const V a = V::pair(2.0, fn([](const V& x) { return mul(x, x); }));
  const V da = V::pair(1.0, fn([](const V& x) { return x; }));
  const V p = perturb(a, da, t);
  EXPECT_EQ(p.first().real().coefficient({t}), 1.0);
  // Pointwise on functions: (x² + ε x) at 3.
  EXPECT_EQ(p.second()(V(3.0)).real().coefficient({t}), 3.0);
  EXPECT_EQ(real(extract(p, t, Part::tangent, ctx).first()), 1.0);
  EXPECT_EQ(real(extract(p, t, Part::primal, ctx).second()(V(3.0))), 9.0);
  const V swapped = swap_tags(p, t, u);
  EXPECT_EQ(swapped.first().real().coefficient({u}), 1.0);
  EXPECT_FALSE(swapped.first().real().depends_on(t));
  EXPECT_EQ(swapped.second()(V(3.0)).real().coefficient({u}), 3.0);
}

// A capture that counts its copies: a function value is shared, so perturbing, extracting,
// swapping, adding, scaling and applying it must never copy the closure's captures.
struct CountedCapture {
  int* copies;
  explicit CountedCapture(int* counter) : copies(counter) {}
  CountedCapture(const CountedCapture& other) : copies(other.copies) { ++*copies; }
  CountedCapture(CountedCapture&&) noexcept = default;
  CountedCapture& operator=(const CountedCapture&) = delete;
  CountedCapture& operator=(CountedCapture&&) = delete;
  ~CountedCapture() = default;
};

TEST(ValueAlgebra, FunctionValuesAreSharedNotCopied) {
  const DiffContext ctx;
  const Tag t = ctx.fresh_tag(), u = ctx.fresh_tag();
  int copies = 0;
  const V f = V::function([c = CountedCapture(&copies)](const V& x) { return mul(x, x); });
  const V g = V::function([c = CountedCapture(&copies)](const V& x) { return x; });
  const int built = copies;
  const V p = perturb(f, g, t);
  const V tangent = extract(p, t, Part::tangent, ctx);
  const V swapped = swap_tags(p, t, u);
  const V both = sum(f, g);
  const V twice = scale(Dual<double>(2.0), f);
  const V copied = f; // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  EXPECT_EQ(real(tangent(V(3.0))), 3.0);
  EXPECT_EQ(swapped(V(3.0)).real().coefficient({u}), 3.0);
  EXPECT_EQ(real(both(V(3.0))), 12.0);
  EXPECT_EQ(real(twice(V(3.0))), 18.0);
  EXPECT_EQ(real(copied(V(3.0))), 9.0);
  EXPECT_EQ(copies, built);
}

TEST(ValueAlgebra, TypedZeroSumScaleFlatten) {
  const ModelType fun =
      ModelType::function(ModelType::real(), ModelType::pair(ModelType::real(), ModelType::unit()));
  const V z = zero<double>(fun);
  EXPECT_EQ(real(z(V(5.0)).first()), 0.0);
  EXPECT_THROW((void)zero<double>(ModelType::sum({ModelType::real(), ModelType::unit()})),
               AdsemError);
  const V f = sum(prim("sin"), prim("cos")); // M17/M20: (sin + cos) 3 = sin 3 + cos 3
  EXPECT_NEAR(real(f(V(3.0))), -0.8488724885405782, 1e-15);
  EXPECT_EQ(real(scale(Dual<double>(2.0), V::pair(1.5, V::tuple({V(2.0)}))).second().first()), 4.0);
  const V ground = V::tuple({V(1.0), V::pair(2.0, V()), V::injection(1, V(3.0)), V::integer(7)});
  const std::vector<double> flat = flatten_primal(ground);
  EXPECT_EQ(flat, (std::vector<double>{1, 2, 3}));
  const std::vector<Dual<double>> doubled{Dual<double>(2.0), Dual<double>(4.0), Dual<double>(6.0)};
  const V back = unflatten(ground, std::span<const Dual<double>>(doubled));
  EXPECT_EQ(flatten_primal(back), (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(back.item(3).integer(), 7);
  EXPECT_EQ(to_string(back), "(2, (4, ()), in2 6, 7)");
  EXPECT_THROW((void)back.item(0).items(), AdsemError);
  EXPECT_THROW((void)flatten(prim("sin")), AdsemError);
}

// Tuples hold their items in one shared block: built in index order (a perturbation of a
// function draws tags when called, so order is observable), copied by sharing, empty allowed.
TEST(ValueAlgebra, TuplesAreBuiltInOrderAndShared) {
  std::vector<std::size_t> order;
  const V t = V::tuple_of(3, [&order](std::size_t i) {
    order.push_back(i);
    return V(static_cast<double>(i) + 0.5);
  });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(to_string(t), "(0.5, 1.5, 2.5)");
  const V copy = t; // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  EXPECT_EQ(copy.items().data(), t.items().data());
  EXPECT_EQ(V::tuple({}).items().size(), 0U);
  EXPECT_THROW((void)t.item(3), AdsemError);
  const V p = V::pair(V(1.0), V::pair(2.0, 3.0));
  EXPECT_EQ(to_string(p), "(1, (2, 3))");
  EXPECT_EQ(to_string(V::tuple({V(4.0), p})), "(4, (1, (2, 3)))");
}

TEST(Pushforward, AgreesWithFiniteDifferencesAtFunctionType) {
  // The pushforward of a curried function is a function; compare it with the finite-difference
  // tangent at function type by probing (manzyuk §5.3 independent oracle).
  const DiffContext ctx;
  const V f = fn([](const V& x) {
    return fn([x](const V& y) { return mul(prim("sin")(mul(x, y)), prim("exp")(x)); });
  });
  const V exact = directional_derivative(f, V(0.7), V(1.0), ctx);
  const V approx = fd_tangent(f, V(0.7), V(1.0));
  const ModelType r_to_r = ModelType::function(ModelType::real(), ModelType::real());
  const ProbeReport report = compare_by_probing(exact, approx, r_to_r, 42, 5,
                                                default_tolerance(CheckKind::finite_difference));
  EXPECT_TRUE(report.equal) << report.worst_place << " ratio " << report.worst_ratio;
  EXPECT_EQ(report.probes, 5);
  // A wrong derivative (the primal in place of the tangent) is told apart.
  const V wrong = pushforward(f, V(1.0), V(0.7), ctx).second();
  EXPECT_FALSE(compare_by_probing(wrong, approx, r_to_r, 42).equal);
}

} // namespace
} // namespace adsem::model::pushforward_test
