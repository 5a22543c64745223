// The one pattern walk (properties/core/term_view.hpp) over simple-diff's and linear-negation's
// term views: free occurrences with the binders around them, the letrec body's reset scope,
// linear binders that bind but are not visible, renaming, and replacement along a path.
#include <gtest/gtest.h>

#include "properties/core/term_view.hpp"
#include "properties/linear_negation/rule_pattern.hpp"
#include "properties/simple_diff/rule_pattern.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/simple_diff/parser.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::term_view_test {
namespace {

simple_diff::Term sd(const std::string& text) {
  return simple_diff::parse_term(text, simple_diff::primitives());
}

std::vector<std::string> names(const simple_diff::VarScope& scope) {
  std::vector<std::string> out;
  for (const auto& [x, t] : scope)
    out.push_back(x);
  return out;
}

TEST(TermView, OccurrencesCarryTheBindersAroundThem) {
  const auto m = sd("let a : real = h in let b : real = a + h in b + h");
  const auto at = simple_diff::occurrences(m, "h", {});
  ASSERT_EQ(at.size(), 3u);
  EXPECT_EQ(names(at[0].visible), std::vector<std::string>{});
  EXPECT_EQ(names(at[1].visible), std::vector<std::string>{"a"});
  EXPECT_EQ(names(at[2].visible), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(at[2].outer);
}

TEST(TermView, ALetrecBodySeesItsParameterOnly) {
  const auto m = sd("let a : real = 1 in letrec f(x : real) : real = x + h in f(h)");
  const auto at = simple_diff::occurrences(m, "h", {});
  ASSERT_EQ(at.size(), 2u);
  EXPECT_EQ(names(at[0].visible), std::vector<std::string>{"x"});
  EXPECT_FALSE(at[0].outer);
  EXPECT_EQ(names(at[1].visible), std::vector<std::string>{"a"});
  EXPECT_TRUE(at[1].outer);
}

TEST(TermView, RenamingTouchesFreeOccurrencesOnly) {
  const simple_diff::TermView view;
  const auto m = sd("y + (let y : real = 2 in y)");
  EXPECT_TRUE(rules::occurs_free(view, m, "y"));
  EXPECT_FALSE(rules::occurs_free(view, sd("let y : real = 2 in y"), "y"));
  EXPECT_EQ(simple_diff::print(rules::rename_free(view, m, "y", "z")),
            simple_diff::print(sd("z + (let y : real = 2 in y)")));
}

TEST(TermView, InstantiateAndReplaceAlongAPath) {
  const auto m = sd("h + h");
  EXPECT_EQ(simple_diff::print(simple_diff::instantiate(m, {{"h", sd("1")}})),
            simple_diff::print(sd("1 + 1")));
  const auto at = simple_diff::occurrences(m, "h", {});
  ASSERT_EQ(at.size(), 2u);
  EXPECT_EQ(simple_diff::print(simple_diff::replace_at(m, at[1].path, sd("2"))),
            simple_diff::print(sd("h + 2")));
}

TEST(TermView, LinearBindersBindButAreNotVisible) {
  using namespace linear_negation;
  const Term t = parse_term("\\z:R. h", signature(), Mode::target);
  const auto at = occurrences(t, "h", {});
  ASSERT_EQ(at.size(), 1u);
  EXPECT_TRUE(at[0].visible.empty()); // z is linear: an exponential term may not mention it
  EXPECT_TRUE(occurrences(t, "z", {}).empty());
}

} // namespace
} // namespace adsem::term_view_test
