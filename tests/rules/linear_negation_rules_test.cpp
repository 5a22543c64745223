// User rules for linear-negation (properties/linear_negation/rule_adapter.hpp): located errors
// for ill-formed rules (parse, unbound metavariable, ill-typed and non-linear schemas), the sound
// examples pass, the unsound ones are caught with a shrunk counterexample naming the failing
// check, and automatic mutants of sound rules are killed and reported.
#include <algorithm>

#include <gtest/gtest.h>

#include "properties/core/rule_check.hpp"
#include "properties/linear_negation/rule_adapter.hpp"
#include "support/rule_checks.hpp"

namespace adsem::linear_negation_rules_test {
namespace {

using rules::RuleReport;

std::string read(const std::string& relative) {
  return test::read_source_file(relative);
}

const linear_negation::RuleAdapter adapter;

Diagnostic compile_error(const std::string& source) {
  return test::rule_compile_error(adapter, source);
}

std::vector<RuleReport> check(const std::string& source, int trials, bool mutants,
                              int mutant_trials = 40) {
  return test::check_rule_source(adapter, "linear-negation", source, trials, mutants,
                                 mutant_trials);
}

const RuleReport& named(const std::vector<RuleReport>& reports, const std::string& name) {
  return *std::ranges::find_if(reports, [&](const RuleReport& r) { return r.name == name; });
}

TEST(LinearNegationRules, ParseErrorsInsideTermsAreLocatedInTheFile) {
  const Diagnostic d = compile_error("meta M : R, N : R\n"
                                     "bad: M + N -->\n"
                                     "   (M + ) * N\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{3, 9})) << d.render();
  const Diagnostic type = compile_error("meta M : R -o\nr: M + M --> M\n");
  EXPECT_EQ(type.kind, ErrorKind::parse);
  EXPECT_EQ(type.pos->line, 1) << type.render();
}

TEST(LinearNegationRules, UnboundAndUndeclaredNamesAreRejected) {
  const Diagnostic d = compile_error("meta M : R, N : R, P : R\n"
                                     "grow: M + N --> M + P\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{2, 21})) << d.render();
  EXPECT_NE(d.message.find("unbound metavariable 'P'"), std::string::npos) << d.message;
  const Diagnostic undeclared = compile_error("meta M : R\nr: M + Z --> M\n");
  EXPECT_EQ(undeclared.pos, (SourcePos{2, 8})) << undeclared.render();
  // a side condition on a linear binder says nothing: metavariables are exponential terms
  const Diagnostic linear = compile_error("meta F : R -o R, N : R\n"
                                          "r: \\a:R. F (N * a) --> \\a:R. F (N * a)  when a # N\n");
  EXPECT_EQ(linear.pos, (SourcePos{2, 46})) << linear.render();
  EXPECT_NE(linear.message.find("linear variable"), std::string::npos) << linear.message;
  const Diagnostic reserved = compile_error("meta M : R\nr: let z1 = M in z1 --> M\n");
  EXPECT_NE(reserved.message.find("reserved"), std::string::npos) << reserved.message;
}

TEST(LinearNegationRules, IllTypedSchemasAreRejected) {
  const Diagnostic sides = compile_error("meta M : R, N : R\n"
                                         "pairing: M + N --> (M, N)\n");
  EXPECT_EQ(sides.kind, ErrorKind::type);
  EXPECT_EQ(sides.pos, (SourcePos{2, 20})) << sides.render();
  EXPECT_NE(sides.message.find("R * R"), std::string::npos) << sides.message;
  // linearity (Table 1): N is exponential, the body of \a:R. must be linear in a
  const Diagnostic linear = compile_error("meta F : R -o R, N : R\n"
                                          "r: \\a:R. F (N * a) --> \\a:R. F (N * a) + F N\n");
  EXPECT_EQ(linear.kind, ErrorKind::type);
  EXPECT_EQ(linear.pos, (SourcePos{2, 44})) << linear.render();
  EXPECT_NE(linear.message.find("linear metavariables are not part"), std::string::npos)
      << linear.message;
  // a false type equality
  const Diagnostic equality = compile_error("meta M : R\nr: M + M --> M  when R = R -o R\n");
  EXPECT_EQ(equality.kind, ErrorKind::type);
  EXPECT_EQ(equality.pos, (SourcePos{2, 22})) << equality.render();
}

TEST(LinearNegationRules, SourceRulesGetTheAdCheckTargetRulesDoNot) {
  const auto reports = check("meta M : R, N : R\nmeta F : R -o R\n"
                             "comm: M * N --> N * M\n"
                             "lin: F (M * N) --> M * F N\n",
                             10, false);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].result.properties.size(), 4u);
  EXPECT_EQ(reports[1].result.properties.size(), 3u); // D (Table 3) is defined on Λ(F) only
}

TEST(LinearNegationRules, SoundExamplesPass) {
  const auto reports = check(read("examples/rules/linear_negation/sound.rules"), 50, false);
  ASSERT_EQ(reports.size(), 8u);
  test::expect_every_rule_passes(reports, 50);
}

TEST(LinearNegationRules, UnsoundExamplesAreCaughtWithShrunkCounterexamples) {
  const auto reports = check(read("examples/rules/linear_negation/unsound.rules"), 100, false);
  ASSERT_EQ(reports.size(), 6u);
  test::expect_every_rule_caught(reports);
  const auto failing = [&](const RuleReport& r, const std::string& check) {
    return std::ranges::find_if(r.result.counterexamples,
                                [&](const auto& c) { return c.property.ends_with("/" + check); });
  };
  // values disagree: a counterexample of denotation-preservation with the two numbers
  for (const std::string name :
       {"wrong-distrib", "bp-product-dropped", "factor-wrong-head", "factor-not-linear"}) {
    const RuleReport& r = named(reports, name);
    const auto denot = failing(r, "denotation-preservation");
    ASSERT_NE(denot, r.result.counterexamples.end()) << rules::report_text({r});
    EXPECT_TRUE(denot->expected && denot->actual) << rules::report_text({r});
    EXPECT_TRUE(denot->discrepancy.has_value());
    EXPECT_NE(failing(r, "extended-adequacy"), r.result.counterexamples.end());
  }
  // the source rule also fails the AD check through D and the wrapper
  const RuleReport& wd = named(reports, "wrong-distrib");
  EXPECT_NE(failing(wd, "extended-ad"), wd.result.counterexamples.end())
      << rules::report_text({wd});
  // the dropped side condition leaves y unbound on the right: type preservation fails
  for (const std::string name : {"gc-no-condition", "let-float-no-condition"}) {
    const RuleReport& r = named(reports, name);
    const auto typing = failing(r, "type-preservation");
    ASSERT_NE(typing, r.result.counterexamples.end()) << rules::report_text({r});
    EXPECT_NE(typing->message.find("unbound variable y"), std::string::npos) << typing->message;
  }
}

TEST(LinearNegationRules, AutomaticMutantsOfSoundRulesAreKilledAndReported) {
  const auto reports = check("meta M : R, N : R, P : R, W : R\nmeta F : R -o R, G : R -o R\n"
                             "let-float: let y = M in N + P --> (let y = M in N) + P  when y # P\n"
                             "bp-product: (\\a:R. F (N * a) + G (M * a)) W"
                             " --> F (N * W) + G (M * W)\n",
                             25, true, 30);
  ASSERT_EQ(reports.size(), 2u);
  for (const RuleReport& r : reports) {
    EXPECT_TRUE(r.passed()) << rules::report_text({r});
    const long killed = std::ranges::count_if(
        r.mutants, [](const rules::MutantReport& m) { return m.status == "killed"; });
    EXPECT_GE(killed, 3) << rules::report_text({r});
  }
  const auto status = [&](const RuleReport& r, const std::string& suffix) {
    const auto m =
        std::ranges::find_if(r.mutants, [&](const auto& m) { return m.name.ends_with(suffix); });
    return m == r.mutants.end() ? std::string("missing") : m->status;
  };
  EXPECT_EQ(status(reports[0], "~drop-when-1"), "killed") << rules::report_text({reports[0]});
  EXPECT_EQ(status(reports[0], "~zero-1"), "killed") << rules::report_text({reports[0]});
  EXPECT_EQ(status(reports[1], "~swap-F-G"), "killed") << rules::report_text({reports[1]});
  EXPECT_EQ(status(reports[1], "~swap-M-N"), "killed") << rules::report_text({reports[1]});
  EXPECT_EQ(status(reports[1], "~zero-1"), "killed") << rules::report_text({reports[1]});
  EXPECT_NE(rules::report_text(reports).find("automatic mutants killed"), std::string::npos);
}

} // namespace
} // namespace adsem::linear_negation_rules_test
