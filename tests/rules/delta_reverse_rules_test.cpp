// User rules for delta-reverse (properties/delta_reverse/rule_adapter.hpp): located errors for
// ill-formed rules, the sound examples pass, the unsound ones are caught with a shrunk
// counterexample naming the failing check, and automatic mutants of sound rules are killed.
#include <algorithm>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/app.hpp"
#include "cli/builtin_registry.hpp"
#include "properties/core/rule_check.hpp"
#include "properties/delta_reverse/rule_adapter.hpp"
#include "tests/support/rule_checks.hpp"

namespace adsem::delta_reverse_rules_test {
namespace {

using rules::RuleReport;

const delta_reverse::RuleAdapter adapter;

std::string read(const std::string& relative) {
  return test::read_source_file(relative);
}

Diagnostic compile_error(const std::string& source) {
  return test::rule_compile_error(adapter, source);
}

std::vector<RuleReport> typecheck(const std::string& source, int trials, bool mutants,
                                  int mutant_trials = 40) {
  return test::check_rule_source(adapter, "delta-reverse", source, trials, mutants, mutant_trials);
}

const RuleReport& named(const std::vector<RuleReport>& reports, const std::string& name) {
  return *std::ranges::find_if(reports, [&](const RuleReport& r) { return r.name == name; });
}

TEST(DeltaReverseRules, ParseErrorsInsideTermsAreLocatedInTheFile) {
  const Diagnostic d = compile_error("meta A : Real, N : Real\n"
                                     "bad: A + N -->\n"
                                     "   (A + ) * N\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{3, 9})) << d.render();
}

TEST(DeltaReverseRules, UnboundMetavariableOnTheRightIsRejected) {
  const Diagnostic d = compile_error("meta A : Real, N : Real, P : Real\n"
                                     "grow: A + N --> A + P\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{2, 21})) << d.render();
  EXPECT_NE(d.message.find("unbound metavariable 'P'"), std::string::npos) << d.message;
}

TEST(DeltaReverseRules, UndeclaredNamesAndBadConditionsAreRejected) {
  const Diagnostic undeclared = compile_error("meta A : Real\nr: A + Z --> A\n");
  EXPECT_EQ(undeclared.pos, (SourcePos{2, 8})) << undeclared.render();
  const Diagnostic not_bound =
      compile_error("meta A : Real, N : Real\nr: A + N --> N + A  when y # A\n");
  EXPECT_EQ(not_bound.pos, (SourcePos{2, 26})) << not_bound.render();
  const Diagnostic bad_type = compile_error("meta A : Reel\nr: A + A --> A\n");
  EXPECT_EQ(bad_type.pos, (SourcePos{1, 10})) << bad_type.render();
  // `M` is a keyword of delta-reverse (the monad type M A): refused at its declaration
  const Diagnostic keyword = compile_error("meta N : Real, M : Real\nr: N + N --> N\n");
  EXPECT_EQ(keyword.pos, (SourcePos{1, 16})) << keyword.render();
  EXPECT_NE(keyword.message.find("keyword"), std::string::npos) << keyword.render();
  const Diagnostic reserved = compile_error("meta A : Real\nr: let v1 = A in v1 --> A\n");
  EXPECT_NE(reserved.message.find("reserved"), std::string::npos) << reserved.render();
}

TEST(DeltaReverseRules, IllTypedSchemasAreRejected) {
  const Diagnostic sides = compile_error("meta A : Real, N : Real\n"
                                         "pairing: A + N --> (A, N)\n");
  EXPECT_EQ(sides.kind, ErrorKind::type);
  EXPECT_EQ(sides.pos, (SourcePos{2, 20})) << sides.render();
  EXPECT_NE(sides.message.find("Real * Real"), std::string::npos) << sides.message;

  const Diagnostic inside = compile_error("meta A : Real * Real, N : Real\n"
                                          "r: A + N --> N\n");
  EXPECT_EQ(inside.kind, ErrorKind::type);
  EXPECT_EQ(inside.pos->line, 2) << inside.render();

  // a Delta and a Real mixed up in the linear layer
  const Diagnostic delta = compile_error("meta d : Delta, r : Real\n"
                                         "r1: Scale(d, r) --> Zero\n");
  EXPECT_EQ(delta.kind, ErrorKind::type);
  EXPECT_EQ(delta.pos->line, 2) << delta.render();
}

TEST(DeltaReverseRules, UnsupportedLayersAreRejectedWithLocatedMessages) {
  // fixed ids: ids are allocated by deltaLet and differ from tape to tape
  const Diagnostic ids = compile_error("meta d : Delta\nr: Add(d, Var(3)) --> d\n");
  EXPECT_EQ(ids.kind, ErrorKind::type);
  EXPECT_EQ(ids.pos, (SourcePos{2, 11})) << ids.render();
  EXPECT_NE(ids.message.find("DeltaId"), std::string::npos) << ids.message;
  // the monadic layer has no model meaning
  const Diagnostic monad = compile_error("meta A : Real\nr: fst (A, pure A) --> A\n");
  EXPECT_EQ(monad.kind, ErrorKind::type);
  EXPECT_EQ(monad.pos, (SourcePos{2, 12})) << monad.render();
  EXPECT_NE(monad.message.find("target layers"), std::string::npos) << monad.message;
  // a Delta rule's metavariables are Delta or Real
  const Diagnostic meta = compile_error("meta d : Delta, k : Int\nr: Scale(fromInt k, d) --> d\n");
  EXPECT_EQ(meta.kind, ErrorKind::type);
  EXPECT_EQ(meta.pos, (SourcePos{1, 21})) << meta.render();
}

TEST(DeltaReverseRules, HostileRuleFilesGetErrorsNotCrashes) {
  std::string deep = "meta A : Real\nr: A";
  for (int i = 0; i < 100'000; ++i)
    deep += " + A";
  deep += " --> A\n";
  EXPECT_EQ(compile_error(deep).kind, ErrorKind::parse);
  EXPECT_EQ(compile_error(std::string("meta A : Real\nr: A + \xff --> A\n")).pos,
            (SourcePos{2, 8}));
}

TEST(DeltaReverseRules, SoundExamplesPass) {
  const auto reports = typecheck(read("examples/rules/delta_reverse/sound.rules"), 60, false);
  ASSERT_EQ(reports.size(), 11u);
  test::expect_every_rule_passes(reports, 60);
}

TEST(DeltaReverseRules, UnsoundExamplesAreCaughtWithShrunkCounterexamples) {
  const auto reports = typecheck(read("examples/rules/delta_reverse/unsound.rules"), 100, false);
  ASSERT_EQ(reports.size(), 5u);
  test::expect_every_rule_caught(reports);
  // value-changing rules: the denotation check fails with the two numbers
  for (const std::string name :
       {"wrong-distrib", "sin-as-cos", "product-rule-dropped", "scale-distrib-wrong"}) {
    const RuleReport& r = named(reports, name);
    const auto denot = std::ranges::find_if(r.result.counterexamples, [](const auto& c) {
      return c.property.ends_with("/denotation-preservation");
    });
    ASSERT_NE(denot, r.result.counterexamples.end()) << rules::report_text({r});
    EXPECT_TRUE(denot->expected && denot->actual) << rules::report_text({r});
    EXPECT_TRUE(denot->discrepancy.has_value());
    // and the calculus's own semantics and AD after the rewrite disagree with the model too
    for (const std::string check : {"/extended-adequacy", "/extended-ad"})
      EXPECT_TRUE(std::ranges::any_of(r.result.counterexamples,
                                      [&](const auto& c) { return c.property.ends_with(check); }))
          << name << check << "\n"
          << rules::report_text({r});
  }
  // the dropped side condition leaves y unbound on the right: type preservation fails
  const RuleReport& lf = named(reports, "let-float-no-condition");
  const auto typing = std::ranges::find_if(lf.result.counterexamples, [](const auto& c) {
    return c.property.ends_with("/type-preservation");
  });
  ASSERT_NE(typing, lf.result.counterexamples.end()) << rules::report_text({lf});
  EXPECT_NE(typing->message.find("unbound variable 'y'"), std::string::npos) << typing->message;
}

TEST(DeltaReverseRules, AutomaticMutantsOfSoundRulesAreKilledAndReported) {
  const auto reports =
      typecheck("meta A : Real, N : Real, P : Real\n"
                "let-float: let y = A in N + P --> (let y = A in N) + P  when y # P\n"
                "meta d : Delta, e : Delta, r : Real\n"
                "scale-distrib: Scale(r, Add(d, e)) --> Add(Scale(r, d), Scale(r, e))\n",
                30, true, 40);
  ASSERT_EQ(reports.size(), 2u);
  for (const RuleReport& r : reports) {
    EXPECT_TRUE(r.passed()) << rules::report_text({r});
    const long killed = std::ranges::count_if(
        r.mutants, [](const rules::MutantReport& m) { return m.status == "killed"; });
    EXPECT_GE(killed, 3) << rules::report_text({r});
  }
  const auto& lf = reports[0].mutants;
  const auto has = [&](const std::string& suffix) {
    return std::ranges::any_of(lf, [&](const auto& m) { return m.name.ends_with(suffix); });
  };
  EXPECT_TRUE(has("~drop-when-1"));
  EXPECT_TRUE(has("~swap-N-P"));
  EXPECT_TRUE(has("~zero-1"));
  const auto drop =
      std::ranges::find_if(lf, [](const auto& m) { return m.name.ends_with("~drop-when-1"); });
  EXPECT_EQ(drop->status, "killed") << rules::report_text({reports[0]});
  EXPECT_EQ(drop->killed_by.front(), "type-preservation");
  // the Delta rule's zero mutants (a summand replaced by Zero) are killed by the dense meaning
  for (const auto& m : reports[1].mutants) {
    if (m.name.find("~zero-") != std::string::npos) {
      EXPECT_EQ(m.status, "killed") << rules::report_text({reports[1]});
    }
  }
  EXPECT_NE(rules::report_text(reports).find("automatic mutants killed"), std::string::npos);
}

// The adapter is registered: `adsem check-rule delta-reverse` (and the alias krawiec) runs it.
TEST(DeltaReverseRules, CheckRuleCommandUsesTheRegisteredAdapter) {
  static const auto registry = cli::builtin_registry();
  const auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "adsem");
    std::ostringstream out, err;
    const int code = cli::run(args, registry, cli::Io{out, err});
    return std::pair{code, out.str()};
  };
  const std::string file =
      std::string(ADSEM_SOURCE_DIR) + "/examples/rules/delta_reverse/unsound.rules";
  const auto [bad, json] = run({"check-rule", "krawiec", file, "--rule", "sin-as-cos",
                                "--no-mutants", "--trials", "30", "--json"});
  EXPECT_EQ(bad, 1) << json;
  const auto j = nlohmann::json::parse(json);
  EXPECT_FALSE(j.at("passed").get<bool>());
  EXPECT_FALSE(j.at("rules").at(0).at("counterexamples").empty()) << json;
  const std::string sound =
      std::string(ADSEM_SOURCE_DIR) + "/examples/rules/delta_reverse/sound.rules";
  const auto [good, text] = run({"check-rule", "delta-reverse", sound, "--rule", "scale-one",
                                 "--no-mutants", "--trials", "30"});
  EXPECT_EQ(good, 0) << text;
}

} // namespace
} // namespace adsem::delta_reverse_rules_test
