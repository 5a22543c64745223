// User rules for perturbative (properties/perturbative/rule_adapter.hpp): located errors for
// ill-formed rules, instantiation that captures on purpose and re-applies the linearity sugar,
// the sound examples pass, the unsound ones are caught with a shrunk counterexample naming the
// failing check, and automatic mutants of sound rules are killed.
#include <algorithm>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "cli/builtin_registry.hpp"
#include "generators/perturbative/terms.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/rule_check.hpp"
#include "properties/perturbative/rule_adapter.hpp"
#include "properties/perturbative/rule_pattern.hpp"
#include "semantics/perturbative/constants.hpp"
#include "support/cli_run.hpp"
#include "support/rule_checks.hpp"
#include "syntax/perturbative/printer.hpp"
#include "syntax/perturbative/typecheck.hpp"

namespace adsem::perturbative_rules_test {
namespace {

using rules::RuleReport;

std::string read(const std::string& relative) {
  return test::read_source_file(relative);
}

const perturbative::RuleAdapter adapter;

Diagnostic compile_error(const std::string& source) {
  return test::rule_compile_error(adapter, source);
}

perturbative::Pattern compiled(const std::string& source) {
  return perturbative::compile_pattern(rules::parse_rule_file(source).rules.front());
}

std::vector<RuleReport> check(const std::string& source, int trials, bool mutants,
                              int mutant_trials = 40) {
  return test::check_rule_source(adapter, "perturbative", source, trials, mutants, mutant_trials);
}

const RuleReport& named(const std::vector<RuleReport>& reports, const std::string& name) {
  const auto it =
      std::ranges::find_if(reports, [&](const RuleReport& r) { return r.name == name; });
  EXPECT_NE(it, reports.end()) << name;
  return *it;
}

const reports::CounterexampleRecord* counterexample_of(const RuleReport& r,
                                                       const std::string& check) {
  for (const auto& c : r.result.counterexamples)
    if (c.property.ends_with("/" + check)) return &c;
  return nullptr;
}

TEST(PerturbativeRules, ParseErrorsInsideTermsAreLocatedInTheFile) {
  const Diagnostic d = compile_error("meta M : R, N : R\n"
                                     "bad: M + N -->\n"
                                     "   (M + ) * N\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{3, 9})) << d.render();
}

TEST(PerturbativeRules, UnboundMetavariableOnTheRightIsRejected) {
  const Diagnostic d = compile_error("meta M : R, N : R, P : R\n"
                                     "grow: M * N --> M * P\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  EXPECT_EQ(d.pos, (SourcePos{2, 21})) << d.render();
  EXPECT_NE(d.message.find("unbound metavariable 'P'"), std::string::npos) << d.message;
  // a name that is not declared at all
  const Diagnostic other = compile_error("meta M : R\nr: sin M --> M * Q\n");
  EXPECT_EQ(other.pos, (SourcePos{2, 18})) << other.render();
  EXPECT_NE(other.message.find("'Q' is neither bound"), std::string::npos) << other.message;
}

TEST(PerturbativeRules, UndeclaredNamesAndBadConditionsAreRejected) {
  const Diagnostic undeclared = compile_error("meta M : R\nr: M + Z --> M\n");
  EXPECT_EQ(undeclared.kind, ErrorKind::parse);
  EXPECT_EQ(undeclared.pos, (SourcePos{2, 8})) << undeclared.render();
  const Diagnostic not_bound =
      compile_error("meta M : R\nr: pi1 (T (\\x:R. M) (1, 2)) --> 0  when y # M\n");
  EXPECT_EQ(not_bound.pos, (SourcePos{2, 41})) << not_bound.render();
  const Diagnostic bad_type = compile_error("meta M : r\nr: sin M --> M\n");
  EXPECT_EQ(bad_type.pos, (SourcePos{1, 10})) << bad_type.render();
  const Diagnostic false_equality = compile_error("meta M : R\nr: sin M --> M  when T R = R\n");
  EXPECT_EQ(false_equality.kind, ErrorKind::type) << false_equality.render();
  EXPECT_EQ(false_equality.pos->line, 2) << false_equality.render();
  // a metavariable's name used as a binder is refused as such, even where the name occurs on the
  // left only under that binder and free on the right
  const Diagnostic captured = compile_error("meta M : R\nr: (\\M:R. M) 1 --> M\n");
  EXPECT_EQ(captured.message, "'M' is a metavariable and cannot also be a bound variable")
      << captured.render();
}

TEST(PerturbativeRules, IllTypedSchemasAreRejected) {
  const Diagnostic sides = compile_error("meta M : R, N : R\n"
                                         "pairing: M * N --> (M, N)\n");
  EXPECT_EQ(sides.kind, ErrorKind::type);
  EXPECT_EQ(sides.pos, (SourcePos{2, 20})) << sides.render();
  EXPECT_NE(sides.message.find("R * R"), std::string::npos) << sides.message;

  const Diagnostic inside = compile_error("meta M : R * R, N : R\n"
                                          "r: M + N --> N\n");
  EXPECT_EQ(inside.kind, ErrorKind::type);
  EXPECT_EQ(inside.pos, (SourcePos{2, 8})) << inside.render();

  // T needs a function: T M with M : R is ill typed (Fig. 1, Push)
  const Diagnostic push = compile_error("meta M : R\nr: pi1 (T M (1, 2)) --> 0\n");
  EXPECT_EQ(push.kind, ErrorKind::type);
  EXPECT_EQ(push.pos, (SourcePos{2, 11})) << push.render();
}

TEST(PerturbativeRules, WhatThisCalculusCannotExpressIsRejectedWithALocatedMessage) {
  const Diagnostic atom = compile_error("meta M : A\nr: sin M --> M\n");
  EXPECT_EQ(atom.kind, ErrorKind::parse);
  EXPECT_EQ(atom.pos, (SourcePos{1, 10})) << atom.render();
  EXPECT_NE(atom.message.find("atomic type"), std::string::npos) << atom.message;
  const Diagnostic reserved = compile_error("meta M : R\nr: (\\x1:R. M) 1 --> M\n");
  EXPECT_NE(reserved.message.find("reserved"), std::string::npos) << reserved.message;
  const Diagnostic primitive = compile_error("meta sin : R\nr: cos sin --> sin\n");
  EXPECT_NE(primitive.message.find("primitive"), std::string::npos) << primitive.message;
  const Diagnostic lone = compile_error("meta M : R\nr: M --> M + 0\n");
  EXPECT_NE(lone.message.find("lone metavariable"), std::string::npos) << lone.message;
  const Diagnostic binder = compile_error("meta M : R\nr: (\\M:R. M) 1 --> 1\n");
  EXPECT_NE(binder.message.find("cannot also be a bound variable"), std::string::npos);
}

TEST(PerturbativeRules, ZeroAndInjectionsOnTheRightAreCheckedAgainstTheLeftType) {
  // `0` and `in_k` cannot be synthesised (spec §2.7): the right side is checked at the left's type
  const auto p = compiled("meta M : R\nr: sin M * 0 --> 0\n");
  EXPECT_TRUE(p.rhs.is_zero());
  EXPECT_EQ(perturbative::type_text(p.rhs.type), "R");
  const auto q = compiled("meta M : R\nr: (M, M) --> in1 M + in2 M\n");
  EXPECT_EQ(perturbative::canonical_key(q.lhs), perturbative::canonical_key(q.rhs));
}

TEST(PerturbativeRules, InstantiationCapturesOnPurposeAndReappliesTheSugar) {
  using namespace perturbative;
  const Type r = real_type();
  const Type rr = arrow_type(r, r);
  // M may mention the pattern's binder x: the instance's x is the λ's x, not renamed away
  const auto p = compiled("meta M : R\npush-const: T (\\x:R. M) --> \\x:R * R. (0, M)\n");
  ASSERT_EQ(p.metas.size(), 1u);
  ASSERT_EQ(p.metas[0].binders.size(), 1u);
  EXPECT_EQ(p.metas[0].binders[0].first, "x");
  const Term lhs = instantiate(p.lhs, {{"M", var("x", r)}});
  EXPECT_TRUE(free_variables(lhs).empty()) << print(lhs);
  EXPECT_EQ(print(lhs), "(T (\\x:R. x))");
  // ... so the right side, which rebinds x at R * R, leaves it ill typed (the missing `x # M`)
  EXPECT_TRUE(free_variables(instantiate(p.rhs, {{"M", var("x", r)}})).empty());
  // with the side condition, x is not visible to M
  const auto guarded = compiled("meta M : R\nc: T (\\x:R. M) --> \\x:R * R. (0, M)  when x # M\n");
  EXPECT_TRUE(guarded.metas[0].binders.empty());

  // a sum in operator position distributes (L165-185): (F1 + F2) A = F1 A + F2 A
  const auto f = compiled("meta F : R -> R, A : R\nr: F A --> F A\n");
  const Term both = sum(primitive("sin", rr), primitive("cos", rr));
  EXPECT_EQ(instantiate(f.lhs, {{"F", both}, {"A", numeral(1)}}).items.size(), 2u);
  // and 0 there makes the whole application 0
  EXPECT_TRUE(instantiate(f.lhs, {{"F", zero(rr)}, {"A", numeral(1)}}).is_zero());

  // plugging into a context binds the instance's free variables to the context's binders
  const Term context = app(lam("x0", r, var("hole", r)), numeral(2)); // (λx0. [ ]) 2
  const auto holes = occurrences(context, "hole", {{"hole", r}});
  ASSERT_EQ(holes.size(), 1u);
  EXPECT_TRUE(std::ranges::any_of(holes[0], [](const auto& v) { return v.first == "x0"; }));
  const Term plugged = plug(context, "hole", 0, var("x0", r));
  EXPECT_TRUE(free_variables(plugged).empty()) << print(plugged);
  // a λ that rebinds the hole's name hides it
  const Term shadowed = lam("hole", r, var("hole", r));
  EXPECT_TRUE(occurrences(shadowed, "hole", {{"hole", r}}).empty());
}

TEST(PerturbativeRules, ZeroVariantsAreWellTypedAndDistinct) {
  // 0 is the zero of every type (Fig. 1 Zero), so each summand of a bag (top level or argument)
  // and each argument as a whole can be replaced by it; an operand position would only repeat
  // its summand (λx.0 ≡ T 0 ≡ 0 N ≡ 0)
  const std::string head = "meta M : R, N : R, P : R\nr: M * (N + P) --> ";
  const auto p = compiled(head + "M * N + M * P\n");
  const auto variants = perturbative::zero_variants(p);
  ASSERT_GE(variants.size(), 4u);
  std::vector<std::string> texts;
  for (const auto& v : variants) {
    const auto q = compiled(head + v.rhs + "\n"); // re-parses, at the rule's type
    EXPECT_NE(perturbative::canonical_key(q.rhs), perturbative::canonical_key(p.rhs)) << v.rhs;
    texts.push_back(perturbative::canonical_key(q.rhs));
  }
  std::ranges::sort(texts);
  EXPECT_EQ(std::ranges::adjacent_find(texts), texts.end()) << "duplicate zero variants";
  EXPECT_EQ(variants.front().where, "(mul ((M, N)))"); // the largest first
  EXPECT_EQ(variants.back().rhs, "(0 : R)");           // the whole side last
}

TEST(PerturbativeRules, ZeroVariantsOfAOneSummandSideStartWithThatSummand) {
  // the side's one summand is a place (the largest), then the application's argument as a whole
  // (a bag of two summands), then each of its summands (ι1 N shown as N); the whole side would
  // repeat the first and is left out
  const auto variants =
      perturbative::zero_variants(compiled("meta M : R, N : R\nr: M * N --> N * M\n"));
  std::vector<std::string> where;
  for (const auto& v : variants)
    where.push_back(v.where);
  EXPECT_EQ(where, (std::vector<std::string>{"(mul ((N, M)))", "(N, M)", "N", "M"}));
}

TEST(PerturbativeRules, TermsGeneratedUnderGeneratedBindersAreWellTyped) {
  // An instance is generated in the scope at the hole, which holds the context generator's
  // binders x0, x1, ...; the generator's fresh binders must avoid them (its M15-shaped template
  // wraps terms drawn in that scope with a new binder, which used to capture them).
  using namespace perturbative;
  Context gamma;
  for (int i = 0; i < 8; ++i)
    gamma.emplace_back("x" + std::to_string(i), real_type());
  const auto generator = gen::term(gamma, real_type(), 3);
  int templates = 0;
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    const Term m = generator(rc::Random(seed), 100).value();
    const auto error = type_error(m, gamma, constant_types());
    EXPECT_FALSE(error.has_value()) << *error << "\n" << print(m);
    // the M15 template's let-bound g : (R -> R) -> (R -> R) wraps terms drawn in gamma
    templates += print(m).find(":(R -> R) -> (R -> R).") != std::string::npos ? 1 : 0;
    if (error) break;
  }
  EXPECT_GT(templates, 20) << "the template was not reached";
}

TEST(PerturbativeRules, InstancesSitUnderBindersAndMentionThem) {
  // targeted generation: the hole goes wherever the generator puts a variable of its type (under
  // λ, under T, in arguments), and the instances use the context's and the pattern's binders
  const auto rule = rules::parse_rule_file("meta M : R, N : R, V : R, A : R\n"
                                           "push-product: pi1 (T (\\x:R. M * N) (V, A))\n"
                                           "  --> pi1 (T (\\x:R. M) (V, A)) * (let x = A in N)\n"
                                           "    + (let x = A in M) * pi1 (T (\\x:R. N) (V, A))\n");
  const auto compiled_rule = adapter.compile(rule.rules.front());
  // type-preservation alone (it never discards): where the instances sit
  props::CalculusEntry entry;
  entry.id = "perturbative";
  props::PropertyDef def;
  def.calculus = entry.id;
  def.name = "perturbative/push-product/type-preservation";
  def.kind = "typing";
  def.body = [&](const props::PropertyContext& context) {
    return adapter.trial(*compiled_rule, "type-preservation", context);
  };
  entry.properties.push_back(def);
  props::Registry registry;
  registry.add(std::move(entry));
  props::CampaignOptions options;
  options.trials = 100;
  options.seed = 7;
  const auto result = props::run_campaign(registry, options);
  ASSERT_EQ(result.properties.size(), 1u);
  const auto& typing = result.properties.front();
  ASSERT_EQ(typing.trials, 100);
  // (seed 7 gives 23, 12 and 74 of 100)
  const std::vector<std::pair<std::string, int>> at_least = {{"hole-under-binder", 10},
                                                             {"instance-uses-context-binder", 5},
                                                             {"instance-uses-pattern-binder", 30}};
  for (const auto& [tag, minimum] : at_least) {
    const auto it = typing.tags.find(tag);
    const int seen = it == typing.tags.end() ? 0 : it->second;
    EXPECT_GE(seen, minimum) << tag << " in " << seen << " of 100 trials";
  }
}

TEST(PerturbativeRules, SoundExamplesPass) {
  const auto reports = check(read("examples/rules/perturbative/sound.rules"), 40, false);
  ASSERT_EQ(reports.size(), 10u);
  test::expect_every_rule_passes(reports, 40);
}

TEST(PerturbativeRules, UnsoundExamplesAreCaughtWithShrunkCounterexamples) {
  const auto reports = check(read("examples/rules/perturbative/unsound.rules"), 100, false);
  ASSERT_EQ(reports.size(), 7u);
  test::expect_every_rule_caught(reports);
  // the wrong distributivity, the dropped product-rule term, the swapped chain rule, the
  // confused perturbation and the wrong projection rule disagree in value:
  // denotation-preservation fails with the two numbers
  for (const std::string name : {"wrong-distrib", "push-product-dropped", "push-chain-swapped",
                                 "push-const-confused", "times2-keeps-operand"}) {
    const RuleReport& r = named(reports, name);
    const auto* denot = counterexample_of(r, "denotation-preservation");
    ASSERT_NE(denot, nullptr) << rules::report_text({r});
    EXPECT_TRUE(denot->expected && denot->actual) << rules::report_text({r});
    EXPECT_TRUE(denot->discrepancy.has_value());
  }
  // the calculus's own AD through the extended reduction disagrees with the model too
  const auto* ad = counterexample_of(named(reports, "push-product-dropped"), "extended-ad");
  ASSERT_NE(ad, nullptr);
  EXPECT_NE(ad->message.find("by T"), std::string::npos) << ad->message;
  // dropped side conditions: the instance's variable ends up rebound at another type or unbound
  const auto* rebound =
      counterexample_of(named(reports, "push-const-no-condition"), "type-preservation");
  ASSERT_NE(rebound, nullptr);
  EXPECT_NE(rebound->message.find("(Var) x"), std::string::npos) << rebound->message;
  const auto* unbound =
      counterexample_of(named(reports, "let-dead-no-condition"), "type-preservation");
  ASSERT_NE(unbound, nullptr);
  EXPECT_NE(unbound->message.find("unbound variable y"), std::string::npos) << unbound->message;
}

TEST(PerturbativeRules, AutomaticMutantsOfSoundRulesAreKilledAndReported) {
  const auto reports = check("meta M : R, N : R, P : R\n"
                             "mult-distrib: M * (N + P) --> M * N + M * P\n"
                             "let-dead: let y = M in P --> P  when y # P\n"
                             "push-const: T (\\x:R. M) --> \\x:R * R. (0, M)  when x # M\n",
                             20, true, 30);
  ASSERT_EQ(reports.size(), 3u);
  for (const RuleReport& r : reports) {
    EXPECT_TRUE(r.passed()) << rules::report_text({r});
    for (const rules::MutantReport& m : r.mutants) {
      // the one equivalent mutant: N and P swapped in a sum (+ is bag union)
      if (m.name == "mult-distrib~swap-N-P") continue;
      EXPECT_EQ(m.status, "killed") << m.name << "\n" << rules::report_text({r});
    }
  }
  const auto has = [&](const RuleReport& r, const std::string& suffix) {
    return std::ranges::any_of(r.mutants, [&](const auto& m) { return m.name.ends_with(suffix); });
  };
  EXPECT_TRUE(has(reports[0], "~swap-N-P"));
  EXPECT_TRUE(has(reports[0], "~zero-4"));
  EXPECT_TRUE(has(reports[1], "~drop-when-1"));
  EXPECT_TRUE(has(reports[2], "~drop-when-1"));
  EXPECT_TRUE(has(reports[2], "~zero-1"));
  // dropping `x # M` is caught by type preservation (M's x rebound at R * R)
  const auto drop = std::ranges::find_if(
      reports[2].mutants, [](const auto& m) { return m.name.ends_with("~drop-when-1"); });
  EXPECT_NE(std::ranges::find(drop->killed_by, "type-preservation"), drop->killed_by.end());
}

testing::CliRun run_cli(const std::vector<std::string>& args) {
  static const auto registry = cli::builtin_registry();
  return testing::run_cli(registry, args);
}

TEST(PerturbativeRules, CheckRuleCommandExitCodes) {
  const std::string dir = std::string(ADSEM_SOURCE_DIR) + "/examples/rules/perturbative/";
  const auto sound = run_cli({"check-rule", "perturbative", dir + "sound.rules", "-r", "push-chain",
                              "-n", "30", "--no-mutants"});
  EXPECT_EQ(sound.code, 0) << sound.out << sound.err;
  EXPECT_NE(sound.out.find("PASS push-chain"), std::string::npos) << sound.out;
  const auto unsound = run_cli({"check-rule", "manzyuk", dir + "unsound.rules", "-r",
                                "wrong-distrib", "-n", "30", "--no-mutants"});
  EXPECT_EQ(unsound.code, 1) << unsound.out << unsound.err;
  EXPECT_NE(unsound.out.find("counterexample (shrunk)"), std::string::npos) << unsound.out;
  EXPECT_NE(unsound.out.find("replay: adsem check-rule manzyuk"), std::string::npos);
}

} // namespace
} // namespace adsem::perturbative_rules_test
