// User rules for simple-diff (properties/simple_diff/rule_adapter.hpp): located errors for
// ill-formed rules, the sound examples pass, the unsound ones are caught with a shrunk
// counterexample, and automatic mutants of sound rules are killed and reported.
#include <algorithm>

#include <gtest/gtest.h>

#include "properties/core/rule_check.hpp"
#include "properties/simple_diff/rule_adapter.hpp"
#include "support/rule_checks.hpp"

namespace adsem::simple_diff_rules_test {
namespace {

using rules::RuleReport;

std::string read(const std::string& relative) {
  return test::read_source_file(relative);
}

const simple_diff::RuleAdapter adapter;

Diagnostic compile_error(const std::string& source) {
  return test::rule_compile_error(adapter, source);
}

std::vector<RuleReport> check(const std::string& source, int trials, bool mutants,
                              int mutant_trials = 60) {
  return test::check_rule_source(adapter, "simple-diff", source, trials, mutants, mutant_trials);
}

TEST(SimpleDiffRules, ParseErrorsInsideTermsAreLocatedInTheFile) {
  const Diagnostic d = compile_error("meta M : real, N : real\n"
                                     "bad: M + N -->\n"
                                     "   (M + ) * N\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{3, 9})) << d.render();
}

TEST(SimpleDiffRules, UnboundMetavariableOnTheRightIsRejected) {
  const Diagnostic d = compile_error("meta M : real, N : real, P : real\n"
                                     "grow: M + N --> M + P\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{2, 21})) << d.render();
  EXPECT_NE(d.message.find("unbound metavariable 'P'"), std::string::npos) << d.message;
}

TEST(SimpleDiffRules, UndeclaredNamesAndBadConditionsAreRejected) {
  const Diagnostic undeclared = compile_error("meta M : real\nr: M + Z --> M\n");
  EXPECT_EQ(undeclared.pos, (SourcePos{2, 8})) << undeclared.render();
  const Diagnostic not_bound =
      compile_error("meta M : real, N : real\nr: M + N --> N + M  when y # M\n");
  EXPECT_EQ(not_bound.pos, (SourcePos{2, 26})) << not_bound.render();
  const Diagnostic bad_type = compile_error("meta M : reel\nr: M + M --> M\n");
  EXPECT_EQ(bad_type.pos, (SourcePos{1, 10})) << bad_type.render();
}

TEST(SimpleDiffRules, IllTypedSchemasAreRejected) {
  const Diagnostic sides = compile_error("meta M : real, N : real\n"
                                         "pairing: M + N --> <M, N>\n");
  EXPECT_EQ(sides.kind, ErrorKind::type);
  EXPECT_EQ(sides.pos, (SourcePos{2, 20})) << sides.render();
  EXPECT_NE(sides.message.find("real * real"), std::string::npos) << sides.message;

  const Diagnostic inside = compile_error("meta M : real * real, N : real\n"
                                          "r: M + N --> N\n");
  EXPECT_EQ(inside.kind, ErrorKind::type);
  EXPECT_EQ(inside.pos->line, 2) << inside.render();
}

TEST(SimpleDiffRules, HostileRuleFilesGetErrorsNotCrashes) {
  std::string deep = "meta M : real\nr: M";
  for (int i = 0; i < 100'000; ++i)
    deep += " + M";
  deep += " --> M\n";
  EXPECT_EQ(compile_error(deep).kind, ErrorKind::parse);
  EXPECT_EQ(compile_error(std::string("meta M : real\nr: M + \xff --> M\n")).pos,
            (SourcePos{2, 8}));
  EXPECT_EQ(compile_error("").kind, ErrorKind::parse);
}

TEST(SimpleDiffRules, SoundExamplesPass) {
  const auto reports = check(read("examples/rules/simple_diff/sound.rules"), 80, false);
  ASSERT_EQ(reports.size(), 6u);
  test::expect_every_rule_passes(reports, 80);
}

TEST(SimpleDiffRules, UnsoundExamplesAreCaughtWithShrunkCounterexamples) {
  const auto reports = check(read("examples/rules/simple_diff/unsound.rules"), 100, false);
  ASSERT_EQ(reports.size(), 4u);
  test::expect_every_rule_caught(reports);
  const auto named = [&](const std::string& name) {
    return *std::ranges::find_if(reports, [&](const RuleReport& r) { return r.name == name; });
  };
  // the wrong distributivity and the dropped product-rule term disagree in value
  for (const std::string name : {"wrong-distrib", "rd-product-dropped", "rd-const-no-condition"}) {
    const RuleReport& r = named(name);
    const auto denot = std::ranges::find_if(r.result.counterexamples, [](const auto& c) {
      return c.property.ends_with("/denotation-preservation");
    });
    ASSERT_NE(denot, r.result.counterexamples.end()) << rules::report_text({r});
    EXPECT_TRUE(denot->expected && denot->actual) << rules::report_text({r});
    EXPECT_TRUE(denot->discrepancy.has_value());
  }
  // the dropped side condition leaves y unbound on the right: type preservation fails
  const RuleReport& lf = named("let-float-no-condition");
  const auto typing = std::ranges::find_if(lf.result.counterexamples, [](const auto& c) {
    return c.property.ends_with("/type-preservation");
  });
  ASSERT_NE(typing, lf.result.counterexamples.end()) << rules::report_text({lf});
  EXPECT_NE(typing->message.find("unbound variable 'y'"), std::string::npos) << typing->message;
}

TEST(SimpleDiffRules, AutomaticMutantsOfSoundRulesAreKilledAndReported) {
  const auto reports = check("meta M : real, N : real, P : real\n"
                             "mult-distrib: M * (N + P) --> M * N + M * P\n"
                             "let-float: let y:real = M in N + P --> (let y:real = M in N) + P"
                             "  when y # P\n",
                             40, true, 50);
  ASSERT_EQ(reports.size(), 2u);
  for (const RuleReport& r : reports) {
    EXPECT_TRUE(r.passed()) << rules::report_text({r});
    const long killed = std::ranges::count_if(
        r.mutants, [](const rules::MutantReport& m) { return m.status == "killed"; });
    EXPECT_GE(killed, 2) << rules::report_text({r});
  }
  // every kind of mutant is generated: drop a condition, swap, zero
  const auto& lf = reports[1].mutants;
  const auto has = [&](const std::string& suffix) {
    return std::ranges::any_of(lf, [&](const auto& m) { return m.name.ends_with(suffix); });
  };
  EXPECT_TRUE(has("~drop-when-1"));
  EXPECT_TRUE(has("~swap-N-P"));
  EXPECT_TRUE(has("~zero-1"));
  const auto drop =
      std::ranges::find_if(lf, [](const auto& m) { return m.name.ends_with("~drop-when-1"); });
  EXPECT_EQ(drop->status, "killed") << rules::report_text({reports[1]});
  EXPECT_NE(rules::report_text(reports).find("automatic mutants killed"), std::string::npos);
}

} // namespace
} // namespace adsem::simple_diff_rules_test
