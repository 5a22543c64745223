// The calculus-independent rule-file layer (syntax/core/rule_file.hpp): statements, continuation
// lines, metavariable declarations, side conditions, and line:column of every parse error.
#include <gtest/gtest.h>

#include "syntax/core/rule_file.hpp"

namespace adsem::rules {
namespace {

Diagnostic parse_error(const std::string& source) {
  try {
    parse_rule_file(source);
  } catch (const AdsemError& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "no error for:\n" << source;
  return {};
}

TEST(RuleFile, ReadsMetasRulesConditionsAndContinuationLines) {
  const RuleFile f = parse_rule_file("# a comment\n"
                                     "meta M : real, N : real * real\n"
                                     "\n"
                                     "plus-comm: M + N --> N + M\n"
                                     "float: let y:real = M in N\n"
                                     "   --> N  when y # N, y not free in M, real = real\n");
  ASSERT_EQ(f.rules.size(), 2u);
  const RuleDecl& a = f.rules[0];
  EXPECT_EQ(a.name, "plus-comm");
  EXPECT_EQ(a.pos, (SourcePos{4, 1}));
  EXPECT_EQ(a.lhs.text, "M + N");
  EXPECT_EQ(a.lhs.pos, (SourcePos{4, 12}));
  EXPECT_EQ(a.rhs.text, "N + M");
  EXPECT_EQ(a.rhs.pos, (SourcePos{4, 22}));
  ASSERT_EQ(a.metas.size(), 2u);
  EXPECT_EQ(a.metas[1].name, "N");
  EXPECT_EQ(a.metas[1].type.text, "real * real");
  EXPECT_EQ(a.metas[1].type.pos, (SourcePos{2, 20}));
  const RuleDecl& b = f.rules[1];
  EXPECT_EQ(b.lhs.text, "let y:real = M in N");
  EXPECT_EQ(b.rhs.text, "N");
  EXPECT_EQ(b.rhs.pos, (SourcePos{6, 8}));
  ASSERT_EQ(b.conditions.size(), 3u);
  EXPECT_EQ(b.conditions[0].kind, Condition::Kind::not_free);
  EXPECT_EQ(b.conditions[0].left.text, "y");
  EXPECT_EQ(b.conditions[0].right.text, "N");
  EXPECT_EQ(b.conditions[1].kind, Condition::Kind::not_free);
  EXPECT_EQ(b.conditions[1].right.text, "M");
  EXPECT_EQ(b.conditions[2].kind, Condition::Kind::type_equal);
  EXPECT_EQ(print_rule(b),
            "float: let y:real = M in N --> N when y # N, y not free in M, real = real");
}

TEST(RuleFile, ErrorsAreLocated) {
  const Diagnostic no_arrow = parse_error("meta M : real\nr1: M + M ==> M\n");
  EXPECT_EQ(no_arrow.kind, ErrorKind::parse);
  EXPECT_EQ(no_arrow.pos, (SourcePos{2, 16}));
  EXPECT_NE(no_arrow.message.find("-->"), std::string::npos);

  const Diagnostic no_colon = parse_error("meta M real\n");
  EXPECT_EQ(no_colon.pos, (SourcePos{1, 8}));

  const Diagnostic bad_condition = parse_error("meta M : real\nr: M --> M when M + 1\n");
  EXPECT_EQ(bad_condition.pos, (SourcePos{2, 17}));

  const Diagnostic empty_rhs = parse_error("r: M -->   when x # M\n");
  EXPECT_EQ(empty_rhs.pos, (SourcePos{1, 9}));

  const Diagnostic twice = parse_error("r: M --> M\nr: M --> M\n");
  EXPECT_EQ(twice.pos, (SourcePos{2, 1}));

  const Diagnostic orphan = parse_error("   M --> M\n");
  EXPECT_EQ(orphan.pos, (SourcePos{1, 4}));

  EXPECT_EQ(parse_error("# only a comment\n").kind, ErrorKind::parse);
}

TEST(RuleFile, LargeFilesParseInLinearTime) {
  std::string source = "meta M : real\n";
  for (int i = 0; i < 50'000; ++i)
    source += "r" + std::to_string(i) + ": M + M --> M * 2\n";
  EXPECT_EQ(parse_rule_file(source).rules.size(), 50'000u);
  EXPECT_EQ(parse_error(source + "r7: M --> M\n").pos, (SourcePos{50'002, 1}));
}

TEST(RuleFile, FragmentPositionsMapIntoTheFile) {
  const Fragment f{"let y:real = M\n  in N", SourcePos{7, 20}};
  EXPECT_EQ(locate(f, SourcePos{1, 5}), (SourcePos{7, 24}));
  EXPECT_EQ(locate(f, SourcePos{2, 6}), (SourcePos{8, 6}));
}

TEST(RuleFile, SwapsWholeIdentifiersOnly) {
  EXPECT_EQ(swap_identifiers("M * (N + MN) + 1e5 * M'", "M", "N"), "N * (M + MN) + 1e5 * M'");
  EXPECT_EQ(identifiers("W.rd[V](x:real. 2e3 * x)"),
            (std::vector<std::string>{"W", "rd", "V", "x", "real", "x"}));
}

} // namespace
} // namespace adsem::rules
