// The calculus-independent rule-file layer (syntax/core/rule_file.hpp): statements, continuation
// lines, metavariable declarations, side conditions, replace / remove / priority, and line:column
// of every parse error.
#include <gtest/gtest.h>

#include "syntax/core/rule_file.hpp"

namespace adsem::rules::rule_file_test {
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

// Files that join a calculus's semantics (`--rules`): an added rule, `replace NAME: ...`,
// `remove NAME` and `priority K`, with their errors at line:column.
TEST(RuleFileActions, ReadsAddReplaceRemoveAndPriority) {
  const RuleFile f = parse_rule_file("meta M : real\n"
                                     "my-rule: M + 0 --> M priority 3\n"
                                     "replace O-add: M + M --> 2 * M when real = real\n"
                                     "remove (9)\n"
                                     "replace Dfwd[λ x.M] : M --> M\n");
  ASSERT_EQ(f.rules.size(), 4u);
  const RuleDecl& add = f.rules[0];
  EXPECT_EQ(add.action, RuleDecl::Action::add);
  EXPECT_EQ(add.name, "my-rule");
  EXPECT_EQ(add.rhs.text, "M");
  ASSERT_TRUE(add.priority.has_value());
  EXPECT_EQ(*add.priority, 3);
  EXPECT_EQ(add.priority_pos, (SourcePos{2, 22}));
  EXPECT_EQ(print_rule(add), "my-rule: M + 0 --> M priority 3");

  const RuleDecl& replace = f.rules[1];
  EXPECT_EQ(replace.action, RuleDecl::Action::replace);
  EXPECT_EQ(replace.name, "O-add");
  EXPECT_EQ(replace.lhs.text, "M + M");
  EXPECT_EQ(replace.lhs.pos, (SourcePos{3, 16}));
  EXPECT_EQ(replace.rhs.text, "2 * M");
  ASSERT_EQ(replace.conditions.size(), 1u);
  EXPECT_FALSE(replace.priority.has_value());
  EXPECT_EQ(print_rule(replace), "replace O-add: M + M --> 2 * M when real = real");

  const RuleDecl& remove = f.rules[2];
  EXPECT_EQ(remove.action, RuleDecl::Action::remove);
  EXPECT_EQ(remove.name, "(9)"); // a paper name is any text: "(9)", "13a", "Dfwd[λ]"
  EXPECT_EQ(remove.pos, (SourcePos{4, 1}));
  EXPECT_EQ(print_rule(remove), "remove (9)");

  EXPECT_EQ(f.rules[3].name, "Dfwd[λ x.M]");
}

TEST(RuleFileActions, ARuleMayStillBeNamedReplaceOrRemove) {
  const RuleFile f = parse_rule_file("meta M : real\n"
                                     "replace: M --> M\n"
                                     "remove: M * 1 --> M\n");
  ASSERT_EQ(f.rules.size(), 2u);
  EXPECT_EQ(f.rules[0].action, RuleDecl::Action::add);
  EXPECT_EQ(f.rules[0].name, "replace");
  EXPECT_EQ(f.rules[1].action, RuleDecl::Action::add);
  EXPECT_EQ(f.rules[1].name, "remove");
  EXPECT_EQ(f.rules[1].lhs.text, "M * 1");
}

TEST(RuleFileActions, ErrorsAreLocated) {
  const Diagnostic colon = parse_error("remove O-add: M --> M\n");
  EXPECT_EQ(colon.kind, ErrorKind::parse);
  EXPECT_EQ(colon.pos, (SourcePos{1, 8}));
  EXPECT_NE(colon.message.find("replace NAME"), std::string::npos) << colon.message;

  const Diagnostic no_name = parse_error("meta M : real\nremove \n");
  EXPECT_EQ(no_name.pos->line, 2);
  EXPECT_NE(no_name.message.find("paper rule"), std::string::npos) << no_name.message;

  const Diagnostic replace_colon = parse_error("meta M : real\nreplace O-add M --> M\n");
  EXPECT_EQ(replace_colon.pos->line, 2);
  EXPECT_NE(replace_colon.message.find("expected ':'"), std::string::npos) << replace_colon.message;

  const Diagnostic replace_name = parse_error("meta M : real\nreplace : M --> M\n");
  EXPECT_EQ(replace_name.pos, (SourcePos{2, 9}));

  const Diagnostic priority = parse_error("meta M : real\nr: M --> M priority high\n");
  EXPECT_EQ(priority.pos, (SourcePos{2, 21}));
  EXPECT_NE(priority.message.find("class number"), std::string::npos) << priority.message;

  const Diagnostic trailing = parse_error("meta M : real\nr: M --> M priority 2 3\n");
  EXPECT_EQ(trailing.pos->line, 2);
}

TEST(RuleFileActions, ANameIsAddedReplacedOrRemovedOnce) {
  const Diagnostic twice = parse_error("meta M : real\n"
                                       "replace O-add: M --> M\n"
                                       "remove O-add\n");
  EXPECT_EQ(twice.pos, (SourcePos{3, 1}));
  EXPECT_NE(twice.message.find("twice (first at line 2)"), std::string::npos) << twice.message;

  const Diagnostic added_twice = parse_error("meta M : real\nr: M --> M\nr: M --> M\n");
  EXPECT_EQ(added_twice.pos, (SourcePos{3, 1}));
}

TEST(RuleFileActions, AFileOfRemovesOnlyIsAFile) {
  const RuleFile f = parse_rule_file("remove O-add\nremove O-mul\n");
  ASSERT_EQ(f.rules.size(), 2u);
  EXPECT_EQ(f.rules[1].name, "O-mul");
  EXPECT_TRUE(f.rules[1].metas.empty());
}

} // namespace
} // namespace adsem::rules::rule_file_test
