// User rules for pullback (properties/pullback/rule_adapter.hpp): located errors for ill-formed
// rules, the sound examples pass, the unsound ones are caught with a shrunk counterexample, and
// automatic mutants of sound rules are killed and reported.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "properties/core/rule_check.hpp"
#include "properties/pullback/rule_adapter.hpp"

namespace adsem::pullback_rules_test {
namespace {

using rules::RuleReport;

std::string read(const std::string& relative) {
  std::ifstream in(std::string(ADSEM_SOURCE_DIR) + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const pullback::RuleAdapter adapter;

Diagnostic compile_error(const std::string& source) {
  try {
    const rules::RuleFile f = rules::parse_rule_file(source);
    for (const auto& r : f.rules)
      adapter.compile(r);
  } catch (const AdsemError& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "no error for:\n" << source;
  return {};
}

std::vector<RuleReport> check(const std::string& source, int trials, bool mutants,
                              int mutant_trials = 40, std::vector<std::string> only = {}) {
  rules::CheckOptions o;
  o.trials = trials;
  o.mutant_trials = mutant_trials;
  o.mutants = mutants;
  o.seed = 7;
  o.only = std::move(only);
  return rules::check_rules(adapter, "pullback", rules::parse_rule_file(source), o);
}

const RuleReport& named(const std::vector<RuleReport>& reports, const std::string& name) {
  return *std::ranges::find_if(reports, [&](const RuleReport& r) { return r.name == name; });
}

TEST(PullbackRules, ParseErrorsInsideTermsAreLocatedInTheFile) {
  const Diagnostic d = compile_error("meta M : R, N : R\n"
                                     "bad: M + N -->\n"
                                     "   mult(<M, >)\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{3, 13})) << d.render();
}

TEST(PullbackRules, UnboundMetavariableOnTheRightIsRejected) {
  const Diagnostic d = compile_error("meta M : R, N : R, P : R\n"
                                     "grow: M + N --> M + P\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{2, 21})) << d.render();
  EXPECT_NE(d.message.find("unbound metavariable 'P'"), std::string::npos) << d.message;
}

TEST(PullbackRules, UndeclaredNamesReservedNamesAndBadConditionsAreRejected) {
  const Diagnostic undeclared = compile_error("meta M : R\nr: M + Z --> M\n");
  EXPECT_EQ(undeclared.kind, ErrorKind::parse);
  EXPECT_EQ(undeclared.pos, (SourcePos{2, 8})) << undeclared.render();
  const Diagnostic not_bound = compile_error("meta M : R, N : R\nr: M + N --> N + M  when y # M\n");
  EXPECT_EQ(not_bound.pos, (SourcePos{2, 26})) << not_bound.render();
  const Diagnostic bad_type = compile_error("meta M : Reel\nr: M + M --> M\n");
  EXPECT_EQ(bad_type.pos, (SourcePos{1, 10})) << bad_type.render();
  const Diagnostic reserved = compile_error("meta M : R\nr: (\\z1:R. M) 1 --> M\n");
  EXPECT_NE(reserved.message.find("reserved"), std::string::npos) << reserved.message;
}

TEST(PullbackRules, IllTypedSchemasAreRejected) {
  const Diagnostic sides = compile_error("meta M : R, N : R\n"
                                         "pairing: M + N --> <M, N>\n");
  EXPECT_EQ(sides.kind, ErrorKind::type);
  EXPECT_EQ(sides.pos, (SourcePos{2, 20})) << sides.render();
  EXPECT_NE(sides.message.find("R * R"), std::string::npos) << sides.message;

  const Diagnostic inside = compile_error("meta M : R * R, N : R\n"
                                          "r: M + N --> N\n");
  EXPECT_EQ(inside.kind, ErrorKind::type);
  EXPECT_EQ(inside.pos->line, 2) << inside.render();

  // the (dual) rule's linearity condition: x must be linear in the dual-map body
  const Diagnostic linear = compile_error("meta S : R, A : R^*\n"
                                          "r: (\\x:R. S)^* @ A --> (\\x:R. S + 1)^* @ A\n");
  EXPECT_EQ(linear.kind, ErrorKind::type);
  EXPECT_NE(linear.message.find("linear"), std::string::npos) << linear.message;
  EXPECT_EQ(linear.pos->line, 2) << linear.render();
}

TEST(PullbackRules, SoundExamplesPass) {
  const auto reports = check(read("examples/rules/pullback/sound.rules"), 25, false);
  ASSERT_EQ(reports.size(), 9u);
  for (const RuleReport& r : reports) {
    EXPECT_TRUE(r.passed()) << rules::report_text({r});
    for (const auto& s : r.result.properties) {
      EXPECT_EQ(s.passed, 25) << s.name;
      EXPECT_GE(s.passed * 2, s.trials) << s.name << ": " << rules::report_text({r});
    }
  }
}

TEST(PullbackRules, UnsoundExamplesAreCaughtWithShrunkCounterexamples) {
  const auto reports = check(read("examples/rules/pullback/unsound.rules"), 80, false);
  ASSERT_EQ(reports.size(), 5u);
  for (const RuleReport& r : reports) {
    EXPECT_FALSE(r.passed()) << r.name;
    ASSERT_FALSE(r.result.counterexamples.empty()) << r.name;
    for (const auto& c : r.result.counterexamples) {
      EXPECT_NE(c.term.find("-->"), std::string::npos) << c.term;
      EXPECT_NE(c.term.find("in context"), std::string::npos) << c.term;
      EXPECT_NE(c.replay_command.find("check-rule"), std::string::npos);
      EXPECT_LE(c.term_size, 60) << r.name << ": " << c.term;
    }
  }
  // value-changing rules: a counterexample of denotation-preservation with the two numbers
  for (const std::string name : {"wrong-distrib", "jvp-mult-dropped", "pullback-const-no-condition",
                                 "pullback-compose-wrong-order"}) {
    const RuleReport& r = named(reports, name);
    const auto denot = std::ranges::find_if(r.result.counterexamples, [](const auto& c) {
      return c.property.ends_with("/denotation-preservation");
    });
    ASSERT_NE(denot, r.result.counterexamples.end()) << rules::report_text({r});
    // two numbers that disagree, or a right side undefined where the left is defined
    EXPECT_TRUE(denot->discrepancy.has_value() ||
                denot->message.find("the right side") != std::string::npos)
        << rules::report_text({r});
    // the reduction and the AD mechanism see the same error
    EXPECT_TRUE(std::ranges::any_of(r.result.counterexamples, [](const auto& c) {
      return c.property.ends_with("/extended-ad") || c.property.ends_with("/extended-adequacy");
    })) << rules::report_text({r});
  }
  // the dropped side condition leaves y unbound on the right: type preservation fails
  const RuleReport& lf = named(reports, "let-float-no-condition");
  const auto typing = std::ranges::find_if(lf.result.counterexamples, [](const auto& c) {
    return c.property.ends_with("/type-preservation");
  });
  ASSERT_NE(typing, lf.result.counterexamples.end()) << rules::report_text({lf});
  EXPECT_NE(typing->message.find("unbound variable 'y'"), std::string::npos) << typing->message;
}

TEST(PullbackRules, AutomaticMutantsOfSoundRulesAreKilledAndReported) {
  // (jvp-mult's ten mutants: docs/rules/pullback.md, from the CLI; kept out of the test's budget)
  // 20 trials per check: fewer would leave the checks untested (health.min_trials), no pass.
  const auto reports = check(read("examples/rules/pullback/sound.rules"), 20, true, 25,
                             {"let-float", "pullback-const"});
  ASSERT_EQ(reports.size(), 2u);
  for (const RuleReport& r : reports) {
    EXPECT_TRUE(r.passed()) << rules::report_text({r});
    const long killed = std::ranges::count_if(
        r.mutants, [](const rules::MutantReport& m) { return m.status == "killed"; });
    EXPECT_GE(killed, 1) << rules::report_text({r});
  }
  const auto mutant = [&](const std::string& rule, const std::string& name) {
    const auto& ms = named(reports, rule).mutants;
    const auto it = std::ranges::find_if(ms, [&](const auto& m) { return m.name == name; });
    EXPECT_NE(it, ms.end()) << name;
    return it == ms.end() ? std::string("missing") : it->status;
  };
  // every kind of mutant is generated and these are killed
  EXPECT_EQ(mutant("let-float", "let-float~drop-when-1"), "killed");
  EXPECT_EQ(mutant("let-float", "let-float~swap-M-P"), "killed");
  EXPECT_EQ(mutant("let-float", "let-float~zero-1"), "killed");
  EXPECT_EQ(mutant("pullback-const", "pullback-const~drop-when-1"), "killed");
  EXPECT_NE(rules::report_text(reports).find("automatic mutants killed"), std::string::npos);
}

} // namespace
} // namespace adsem::pullback_rules_test
