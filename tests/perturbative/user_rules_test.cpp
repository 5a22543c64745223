// User rules joined to perturbative's semantics (properties/perturbative/user_rules.hpp): an
// added rule fires deep inside a reduction, replace and remove change the trace, unknown names
// are located errors, no rule file leaves the paper's book, and the three example files
// (examples/rules/perturbative/campaign-*.rules) are told apart by campaigns.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/perturbative/frontend.hpp"
#include "properties/perturbative/user_rules.hpp"
#include "support/scratch.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::perturbative::user_rules_test {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

std::shared_ptr<const props::UserRules> load_path(const std::string& path) {
  return props::load_user_rules(*registry().find("perturbative"), path);
}

std::shared_ptr<const props::UserRules> load_text(const std::string& name,
                                                  const std::string& text) {
  // one file per process: ctest runs the tests of this program side by side
  const auto path = testing::scratch_path("pt-user-" + name + ".rules");
  std::ofstream(path.path()) << text;
  return load_path(path.string());
}

props::EvalResult reduce(const std::string& source,
                         std::shared_ptr<const props::UserRules> rules = nullptr) {
  props::EvalOptions options;
  options.user_rules = std::move(rules);
  return Frontend().reduce(source, options);
}

props::EvalResult eval(const std::string& source,
                       std::shared_ptr<const props::UserRules> rules = nullptr) {
  props::EvalOptions options;
  options.trace = true;
  options.user_rules = std::move(rules);
  return Frontend().eval(source, options);
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines)
    out += l + "\n";
  return out;
}

bool has_line(const std::vector<std::string>& trace, const std::string& start) {
  return std::ranges::any_of(trace, [&](const std::string& l) { return l.starts_with(start); });
}

// The AdsemError that loading `text` throws (its kind, position and message).
Diagnostic load_error(const std::string& text) {
  try {
    load_text("bad", text);
  } catch (const AdsemError& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}

const std::string examples = std::string(ADSEM_SOURCE_DIR) + "/examples/rules/perturbative/";

reports::CampaignResult campaign(std::shared_ptr<const props::UserRules> rules, int trials,
                                 std::vector<std::string> properties = {},
                                 props::Overrides overrides = {}) {
  props::CampaignOptions options;
  options.calculi = {"perturbative"};
  options.properties = std::move(properties);
  options.trials = trials;
  options.seed = 7;
  options.user_rules = std::move(rules);
  options.overrides = std::move(overrides);
  return props::run_campaign(registry(), options);
}

const reports::PropertySummary& summary(const reports::CampaignResult& r, const std::string& name) {
  const auto it = std::ranges::find_if(
      r.properties, [&](const auto& p) { return p.name == "perturbative/" + name; });
  if (it == r.properties.end()) throw std::logic_error("no property " + name);
  return *it;
}

long fired(const reports::CampaignResult& r, const std::string& rule) {
  long n = 0;
  for (const auto& p : r.properties)
    if (const auto it = p.rules_fired.find(rule); it != p.rules_fired.end()) n += it->second;
  return n;
}

// ---- where an added rule is tried ----

TEST(UserRules, AnAddedRuleFiresDeepInsideTheReduction) {
  const auto rules = load_text("mul-one", "meta M : R\nmul-one: M * 1 --> M\n");
  // y * 1 is stuck under λy (δ needs numerals): the user's rule is tried there, after the paper's
  const std::string program = "(\\f:R->R. f 2 + 3) (\\y:R. y * 1)";
  const auto big = eval(program, rules);
  EXPECT_EQ(big.value, "5");
  ASSERT_TRUE(has_line(big.trace, "mul-one: ")) << joined(big.trace);
  for (const std::string& line : big.trace) {
    if (line.starts_with("mul-one: ")) {
      EXPECT_EQ(line, "mul-one: (mul ((y, 1)))");
    }
  }
  const auto small = reduce(program, rules);
  EXPECT_EQ(small.value, "5");
  EXPECT_TRUE(has_line(small.trace, "mul-one: ")) << joined(small.trace);
  // without the file, the paper's rules leave y * 1 to δ after β
  EXPECT_FALSE(has_line(eval(program).trace, "mul-one"));
  EXPECT_EQ(eval(program).value, "5");
}

TEST(UserRules, ThePapersRulesComeFirstAtAPosition) {
  // δ fires on 4 * 1 before the user's rule is tried
  const auto rules = load_text("mul-one", "meta M : R\nmul-one: M * 1 --> M\n");
  const auto r = eval("4 * 1", rules);
  EXPECT_EQ(r.value, "4");
  EXPECT_FALSE(has_line(r.trace, "mul-one")) << joined(r.trace);
  EXPECT_TRUE(has_line(r.trace, "delta: ")) << joined(r.trace);
}

// ---- replace and remove ----

TEST(UserRules, ReplaceTakesTheInstancesItsPatternMatches) {
  // τ_sin with sin for sin' (the mutant sin-derivative-is-sin, as a rule file)
  const auto rules = load_text(
      "delta-t", "replace delta-T: T sin --> \\p:R * R. (pi1 p * sin (pi2 p), sin (pi2 p))\n");
  const auto sin = eval("pi1 (T sin (1, 0))", rules);
  EXPECT_EQ(sin.value, "(0 : R)"); // 1 * sin 0, where the paper's template gives cos 0 = 1
  EXPECT_TRUE(has_line(sin.trace, "delta-T: (T sin)")) << joined(sin.trace);
  EXPECT_EQ(eval("pi1 (T sin (1, 0))").value, "1");
  // cos is not an instance: the paper's δT still fires, under the name that says so
  const auto cos = eval("pi1 (T cos (1, 0))", rules);
  EXPECT_EQ(cos.value, "(0 : R)");
  EXPECT_TRUE(has_line(cos.trace, "delta-T (paper): (T cos)")) << joined(cos.trace);
}

TEST(UserRules, ReplaceAClauseOfTxCallingTxOnAMetavariable) {
  // ⬦ without its chain-rule term (spec §9 pitfall 14), at applications of R -> R to R
  const auto rules =
      load_text("tx-app", "meta F : R -> R, N : R\nreplace Tx-app: F N --> ((pi1 Tx(F)) (pi2 "
                          "Tx(N)), (pi2 Tx(F)) (pi2 Tx(N)))\n");
  const std::string derivative = "pi1 (T (\\x:R. sin (x * x)) (1, 0.5))";
  const auto paper = eval(derivative);
  const auto user = eval(derivative, rules);
  EXPECT_NE(paper.value, user.value);
  EXPECT_EQ(user.value, "(0 : R)"); // (π1 T_x sin)(x * x) = 0: the inner derivative is lost
  EXPECT_TRUE(has_line(user.trace, "Tx-app: ")) << joined(user.trace);
  // mul's argument is a pair: mul : R * R -> R is not an instance, the paper's clause stays
  EXPECT_TRUE(has_line(user.trace, "Tx-app (paper): ")) << joined(user.trace);
}

TEST(UserRules, RemoveTakesARuleOut) {
  const auto rules = load_text("remove", "remove times2\n");
  const std::string program = "pi1 (in2 3 : R * R)";
  EXPECT_EQ(eval(program).value, "(0 : R)");
  const auto r = eval(program, rules);
  EXPECT_EQ(r.value, "(pi1 (in2 (3) : R * R))"); // stuck: nothing else contracts π1(ι2 s)
  EXPECT_TRUE(r.trace.empty()) << joined(r.trace);
  // a removal of the entry after a replaced one (where the paper's is kept) in the same file
  const auto both = load_text("remove-replace", "remove times1\nmeta M : R, N : R\nreplace "
                                                "beta: (\\y:R. M) N --> M when y # M\n");
  const auto dead = eval("(\\y:R. 4) 3 + pi1 (in1 5 : R * R)", both);
  EXPECT_TRUE(has_line(dead.trace, "beta: ")) << joined(dead.trace);
  EXPECT_FALSE(has_line(dead.trace, "times1")) << joined(dead.trace);
  EXPECT_TRUE(has_line(eval("(\\y:R. y) 3", both).trace, "beta (paper): "));
}

TEST(UserRules, WithoutAFileTheBookIsThePapers) {
  props::PropertyContext context;
  EXPECT_EQ(semantics_for(context).rules.get(), paper_rules().get());
  EXPECT_EQ(&semantics_for("perturbative/times2-keeps-operand", nullptr),
            &semantics_for("perturbative/times2-keeps-operand"));
  // with a file: one patched book per mutant, built once
  context.user_rules = load_text("mul-one", "meta M : R\nmul-one: M * 1 --> M\n");
  const Rules& patched = *semantics_for(context).rules;
  EXPECT_EQ(&patched, semantics_for(context).rules.get());
  EXPECT_EQ(patched.size(), paper_rules()->size() + 1);
  EXPECT_EQ(patched.info(patched.size() - 1).name, "mul-one");
  EXPECT_EQ(patched.info(patched.size() - 1).kind, RuleKind::user);
  EXPECT_EQ(patched.info(patched.size() - 1).citation,
            "user rule, " + context.user_rules->file + ":2");
  context.mutant = "perturbative/times2-keeps-operand";
  EXPECT_NE(semantics_for(context).rules.get(), &patched);
}

// ---- located errors ----

TEST(UserRules, AnUnknownNameIsALocatedErrorNamingTheNearest) {
  const Diagnostic d = load_error("meta M : R\nreplace bta: M --> M\n");
  EXPECT_EQ(d.kind, ErrorKind::parse);
  ASSERT_TRUE(d.pos);
  EXPECT_EQ(d.pos->line, 2);
  EXPECT_EQ(d.pos->column, 9);
  EXPECT_NE(d.message.find("no rule 'bta'"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("nearest: beta"), std::string::npos) << d.message;
  EXPECT_EQ(load_error("remove tims1\n").pos->column, 8);
}

// The derivative macro D is an entry of the book but not a step: a file cannot edit it.
TEST(UserRules, TheDerivativeMacroCannotBeReplacedOrRemoved) {
  const Diagnostic removed = load_error("remove D\n");
  ASSERT_TRUE(removed.pos);
  EXPECT_EQ(removed.pos->column, 8);
  EXPECT_NE(removed.message.find("'D' is the derivative macro"), std::string::npos)
      << removed.message;
  const Diagnostic replaced = load_error("meta M : R\nreplace D: M --> M\n");
  ASSERT_TRUE(replaced.pos);
  EXPECT_EQ(replaced.pos->line, 2);
  EXPECT_NE(replaced.message.find("neither replace nor remove"), std::string::npos)
      << replaced.message;
}

TEST(UserRules, WhatThisCalculusRefusesIsALocatedError) {
  const auto expect = [](const std::string& text, int line, const std::string& part) {
    const Diagnostic d = load_error(text);
    ASSERT_TRUE(d.pos) << d.message;
    EXPECT_EQ(d.pos->line, line) << d.message;
    EXPECT_NE(d.message.find(part), std::string::npos) << d.message;
  };
  expect("meta M : R\nlam: \\y:R. M --> \\y:R. M\n", 2, "never a redex");
  expect("meta M : R, N : R\nsum: sin M + sin N --> sin N + sin M\n", 2, "one simple term");
  expect("meta M : R\nmul-one: M * 1 --> M priority 2\n", 2, "'priority'");
  expect("meta M : R\nbeta: M * 1 --> M\n", 2, "replace beta");
  expect("remove Tx-app\n", 1, "can be replaced, not removed");
  expect("meta F : R -> R, N : R\nreplace Tx-app: F N --> Tx(G)\n", 2, "'G' is not a declared");
  expect("meta X : R\nreplace Tx-x: X --> X\n", 2, "cannot be replaced");
  expect("meta M : R\nreplace Tx-lambda: M * 1 --> Tx(M)\n", 2, "not a term the clause");
}

// ---- the examples, told apart by campaigns ----

TEST(UserRules, ExampleThatLoopsLeavesAPropertyUntested) {
  const auto rules = load_path(examples + "campaign-loops.rules");
  // (a small fuel: every trial runs out of it, as it does of any fuel, sooner)
  const auto r = campaign(rules, 25, {"perturbative/perturbation-confusion"}, {{"fuel", "100"}});
  const auto& p = summary(r, "perturbation-confusion");
  EXPECT_EQ(p.status, "untested");
  EXPECT_EQ(p.passed, 0);
  EXPECT_EQ(p.discard_reasons.at("fuel"), p.discarded);
  EXPECT_GT(fired(r, "mul-comm"), 0);
  EXPECT_FALSE(r.all_passed());
}

TEST(UserRules, HarmlessExamplePassesAndFires) {
  const auto rules = load_path(examples + "campaign-harmless.rules");
  const auto r =
      campaign(rules, 40,
               {"perturbative/adequacy", "perturbative/step-soundness",
                "perturbative/strategy-agreement", "perturbative/ad-vs-finite-differences"});
  EXPECT_TRUE(r.all_passed());
  EXPECT_GT(fired(r, "mul-one"), 0);
}

TEST(UserRules, ExampleFromThePitfallsFails) {
  const auto rules = load_path(examples + "campaign-pitfall.rules");
  // a quarter of the trials is targeted (the default share), and adequacy sees the dropped term
  // only where a T_x reaches an instance: at seed 7 its first counterexample is trial 690
  const auto r =
      campaign(rules, 1000, {"perturbative/adequacy", "perturbative/ad-vs-finite-differences"});
  EXPECT_EQ(summary(r, "adequacy").status, "failed");
  EXPECT_EQ(summary(r, "ad-vs-finite-differences").status, "failed");
  EXPECT_GT(fired(r, "Tx-app"), 0);
}

} // namespace
} // namespace adsem::perturbative::user_rules_test
