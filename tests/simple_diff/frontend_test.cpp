// The simple-diff front end (properties/core/calculus.hpp) and its registry entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "properties/simple_diff/frontend.hpp"
#include "properties/simple_diff/register.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::simple_diff::frontend_test {
namespace {

TEST(SimpleDiffFrontend, TypeEvalReduce) {
  const Frontend fe;
  EXPECT_EQ(fe.type_of("grad[<1, 2>](x:real^2. fst(x) * snd(x))"), "real * real");
  const props::EvalResult r = fe.eval("<1.rd[1](x:real. x * 1.rd[1](y:real. x + y)), ()>", {});
  EXPECT_EQ(r.value, "<1, ()>");
  ASSERT_TRUE(r.reals);
  EXPECT_EQ(*r.reals, (std::vector<double>{1}));
  EXPECT_GT(r.steps, 0);
  EXPECT_TRUE(r.trace.empty());
  const props::EvalResult t = fe.reduce("let x:real = 2 in x * x", {});
  ASSERT_FALSE(t.trace.empty());
  EXPECT_EQ(t.trace.front().rfind("O-val: ", 0), 0u) << t.trace.front();
  EXPECT_NE(std::find_if(t.trace.begin(), t.trace.end(),
                         [](const std::string& s) { return s.rfind("O-let", 0) == 0; }),
            t.trace.end());
}

TEST(SimpleDiffFrontend, GradTakesTheBinderForm) {
  const Frontend fe;
  for (const char* mechanism : {"rd", "rd-literal", ""}) {
    SCOPED_TRACE(mechanism);
    const props::GradResult g =
        fe.grad("(x:real^2. fst(x) * snd(x) + sin(fst(x)))", {1, 2}, mechanism, {});
    EXPECT_DOUBLE_EQ(g.value, 2 + std::sin(1.0));
    ASSERT_EQ(g.gradient.size(), 2u);
    EXPECT_DOUBLE_EQ(g.gradient[0], 2 + std::cos(1.0));
    EXPECT_DOUBLE_EQ(g.gradient[1], 1);
  }
  const props::GradResult bare = fe.grad("x:real. x * x * x", {2}, "rd", {});
  EXPECT_EQ(bare.gradient, (std::vector<double>{12}));
  EXPECT_EQ(bare.mechanism, "rd");
  EXPECT_EQ(fe.mechanisms(), (std::vector<std::string>{"rd", "rd-literal"}));
}

ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const AdsemError& e) {
    return e.diagnostic().kind;
  }
  return ErrorKind::io; // (no error)
}

TEST(SimpleDiffFrontend, ErrorsHaveKinds) {
  const Frontend fe;
  EXPECT_EQ(kind_of([&] { fe.type_of("let x = 1 in x"); }), ErrorKind::parse);
  EXPECT_EQ(kind_of([&] { fe.type_of("1 + ()"); }), ErrorKind::type);
  EXPECT_EQ(kind_of([&] { fe.eval("log(0)", {}); }), ErrorKind::domain);
  props::EvalOptions little;
  little.fuel = 100;
  EXPECT_EQ(kind_of([&] { fe.eval("letrec f(x:real):real = f(x) in f(1)", little); }),
            ErrorKind::fuel);
  EXPECT_EQ(kind_of([&] { fe.grad("(x:real. x)", {1, 2}, "rd", {}); }), ErrorKind::usage);
  EXPECT_EQ(kind_of([&] { fe.grad("(x:real. <x, x>)", {1}, "rd", {}); }), ErrorKind::type);
  EXPECT_EQ(kind_of([&] { fe.grad("(x:real. x)", {1}, "backprop", {}); }), ErrorKind::usage);
  EXPECT_EQ(kind_of([&] { fe.denote("log(0)", std::nullopt); }), ErrorKind::domain);
  props::EvalOptions mutated;
  mutated.mutant = "simple-diff/no-such-mutant";
  EXPECT_EQ(kind_of([&] { fe.eval("1", mutated); }), ErrorKind::usage);
}

TEST(SimpleDiffFrontend, Registered) {
  props::Registry registry;
  props::register_simple_diff(registry);
  const props::CalculusEntry* entry = registry.find("abadi-plotkin");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->id, "simple-diff");
  // the paper by its authors and title (user-facing text names no working-copy file)
  EXPECT_EQ(entry->paper, "Abadi and Plotkin, A Simple Differentiable Programming Language");
  ASSERT_TRUE(entry->frontend);
  EXPECT_EQ(entry->frontend->type_of("1"), "real");
}

} // namespace
} // namespace adsem::simple_diff::frontend_test
