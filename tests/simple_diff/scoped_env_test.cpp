// The environments Γ and ρ of seed 003 (syntax/simple_diff/scoped_env.hpp) over dense name ids
// (name_index.hpp): shadowing, scopes, call frames (Fig. 2 O-call runs the callee in {x ↦ V'}),
// and thousands of names, as R-fast's A-normal form binds (spec §9 P-1(b)).
#include <string>

#include <gtest/gtest.h>

#include "syntax/simple_diff/name_index.hpp"
#include "syntax/simple_diff/scoped_env.hpp"

namespace adsem::simple_diff::scoped_env_test {
namespace {

TEST(NameIndex, GivesDenseIdsInInsertionOrderAndFindsThemAfterGrowing) {
  NameIndex index;
  EXPECT_EQ(index.find("x"), NameIndex::none);
  for (int i = 0; i < 5000; ++i)
    EXPECT_EQ(index.insert("t_" + std::to_string(i)), static_cast<std::uint32_t>(i));
  EXPECT_EQ(index.insert("t_17"), 17u); // known: the same id, nothing inserted
  EXPECT_EQ(index.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    const std::string name = "t_" + std::to_string(i);
    EXPECT_EQ(index.find(name), static_cast<std::uint32_t>(i));
    EXPECT_EQ(index.name(static_cast<std::uint32_t>(i)), name);
  }
  EXPECT_EQ(index.find("t_5000"), NameIndex::none);
  EXPECT_EQ(index.find(""), NameIndex::none);
}

TEST(ScopedEnv, InnerBindingShadowsAndLeavingTheScopeRestoresTheOuter) {
  ScopedEnv<int> env;
  env.push("x", 1);
  {
    ScopedEnv<int>::Scope scope(env);
    env.push("x", 2);
    env.push("y", 3);
    ASSERT_NE(env.find("x"), nullptr);
    EXPECT_EQ(*env.find("x"), 2);
    EXPECT_EQ(*env.find("y"), 3);
  }
  ASSERT_NE(env.find("x"), nullptr);
  EXPECT_EQ(*env.find("x"), 1);
  EXPECT_EQ(env.find("y"), nullptr);
  EXPECT_FALSE(env.bound_outside("y"));
}

TEST(ScopedEnv, AFrameHidesTheCallersBindingsUntilItEnds) {
  ScopedEnv<std::string> env;
  env.push("x", "outer");
  env.push("z", "caller only");
  {
    ScopedEnv<std::string>::Frame frame(env);
    EXPECT_EQ(env.find("x"), nullptr);
    EXPECT_TRUE(env.bound_outside("z"));
    env.push("x", "callee");
    ASSERT_NE(env.find("x"), nullptr);
    EXPECT_EQ(*env.find("x"), "callee");
    EXPECT_FALSE(env.bound_outside("x"));
  }
  ASSERT_NE(env.find("z"), nullptr);
  EXPECT_EQ(*env.find("z"), "caller only");
  EXPECT_EQ(*env.find("x"), "outer");
}

TEST(ScopedEnv, ThousandsOfNamesEachSeeTheirOwnBinding) {
  ScopedEnv<int> env;
  const std::size_t mark = env.mark();
  for (int i = 0; i < 3000; ++i)
    env.push("t_" + std::to_string(i), i);
  for (int i = 0; i < 3000; i += 7) {
    const int* v = env.find("t_" + std::to_string(i));
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(*v, i);
  }
  env.pop_to(mark);
  EXPECT_EQ(env.find("t_0"), nullptr);
  EXPECT_EQ(env.find("t_2999"), nullptr);
  env.push("t_5", 50); // a name seen before binds again
  EXPECT_EQ(*env.find("t_5"), 50);
}

} // namespace
} // namespace adsem::simple_diff::scoped_env_test
