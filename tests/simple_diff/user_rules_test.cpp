// A user's rule file joined to simple-diff's semantics (`--rules`, properties/simple_diff/
// user_rules.hpp): added rules fire deep inside evaluation, replace and remove change the trace,
// errors are located, the book without rules is the paper's, and campaigns tell the three
// examples of examples/rules/simple_diff/ apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "properties/core/calculus.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/simple_diff/oracles.hpp"
#include "properties/simple_diff/register.hpp"
#include "properties/simple_diff/user_rules.hpp"
#include "semantics/simple_diff/rules.hpp"
#include "semantics/simple_diff/run.hpp"
#include "support/scratch.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::user_rules_test {
namespace {

const props::Registry& registry() {
  static const props::Registry r = [] {
    props::Registry out;
    props::register_simple_diff(out);
    return out;
  }();
  return r;
}
const props::CalculusEntry& entry() {
  return *registry().find("simple-diff");
}

std::shared_ptr<const props::UserRules> rules_from(const std::string& text) {
  const auto path = testing::scratch_path("sd-user.rules");
  std::ofstream(path.path()) << text;
  return props::load_user_rules(entry(), path.string());
}
std::shared_ptr<const props::UserRules> example(const std::string& name) {
  return props::load_user_rules(entry(), std::string(ADSEM_SOURCE_DIR) +
                                             "/examples/rules/simple_diff/" + name);
}

props::EvalResult reduce(const std::string& term,
                         std::shared_ptr<const props::UserRules> rules = nullptr) {
  props::EvalOptions o;
  o.trace = true;
  o.user_rules = std::move(rules);
  return entry().frontend->eval(term, o);
}

bool has_line(const props::EvalResult& r, const std::string& line) {
  return std::ranges::find(r.trace, line) != r.trace.end();
}

TEST(SimpleDiffUserRules, AddedRuleFiresDeepInsideEvaluation) {
  const auto rules = rules_from("meta M : real\nadd-zero: M + 0 --> M\n");
  const auto r = reduce("let y:real = 2 in sin((y + 0) * 3)", rules);
  EXPECT_EQ(r.reals, std::vector<double>{std::sin(6.0)});
  // tried on entry to ⇒, before O-add's premises: the step's redex is the subterm y + 0
  EXPECT_TRUE(has_line(r, "add-zero: y + 0"));
  EXPECT_FALSE(has_line(r, "O-add: y + 0"));
  EXPECT_EQ(r.trace.front(), "O-val: 2");
  const auto paper = reduce("let y:real = 2 in sin((y + 0) * 3)");
  EXPECT_TRUE(has_line(paper, "O-add: y + 0"));
  // and in symbolic evaluation, inside rd: the trace of the body has no "+ 0" left
  const auto traced = reduce("grad[1](y:real. y * (y + 0))", rules);
  EXPECT_EQ(traced.reals, std::vector<double>{2.0});
  EXPECT_TRUE(has_line(traced, "add-zero: y + 0"));
}

TEST(SimpleDiffUserRules, MetavariablesBindTermsOfTheirTypeOnly) {
  // M : real * real on the left of fst: a pair of reals only, not a pair with a pair inside
  const auto rules = rules_from("meta M : real, N : real\nfst-pair: fst(<M, N>) --> M\n");
  EXPECT_TRUE(has_line(reduce("fst(<1, 2>)", rules), "fst-pair: fst(<1, 2>)"));
  const auto nested = reduce("fst(<1, <2, 3>>)", rules);
  EXPECT_FALSE(
      std::ranges::any_of(nested.trace, [](auto& l) { return l.starts_with("fst-pair"); }));
  // a variable's type is read from ρ: p : real * real is no instance of M : real
  const auto branch =
      rules_from("meta M : real, N : real\nif-true: if true then M else N --> M + 0\n");
  EXPECT_TRUE(has_line(reduce("if true then 1 else 2", branch), "if-true: if true then 1 else 2"));
  EXPECT_EQ(reduce("let p:real * real = <1, 2> in fst(if true then p else p)", branch).reals,
            std::vector<double>{1.0});
  // the same metavariable twice: alpha-equivalent subterms
  const auto twice = rules_from("meta M : real\ndouble: M + M --> 2 * M\n");
  EXPECT_TRUE(has_line(reduce("(1 + 2) + (1 + 2)", twice), "double: 1 + 2 + (1 + 2)"));
  EXPECT_FALSE(has_line(reduce("(1 + 2) + (2 + 1)", twice), "double: 1 + 2 + (2 + 1)"));
  // binders up to renaming, and `y # N`: N may not mention the let's binder
  const auto drop =
      rules_from("meta M : real, N : real\ndrop-let: let y:real = M in N --> N when y # N\n");
  EXPECT_TRUE(has_line(reduce("let z:real = 1 in 5", drop), "drop-let: let z:real = 1 in 5"));
  EXPECT_FALSE(std::ranges::any_of(reduce("let z:real = 1 in z", drop).trace,
                                   [](auto& l) { return l.starts_with("drop-let"); }));
  // the right's binders capture nothing: P is not under y on the left, the right puts it under
  // the let, and the program's outer z stays the outer z
  const auto float_in =
      rules_from("meta M : real, N : real, P : real\n"
                 "float-in: (let y:real = M in N) + P --> let y:real = M in N + P\n");
  const auto shadowed = reduce("let z:real = 1 in (let z:real = 2 in z * 10) + z", float_in);
  EXPECT_EQ(shadowed.reals, std::vector<double>{21.0});
  EXPECT_TRUE(
      std::ranges::any_of(shadowed.trace, [](auto& l) { return l.starts_with("float-in"); }));
}

TEST(SimpleDiffUserRules, ReplaceAndRemoveChangeTheTrace) {
  const auto replaced = rules_from("meta M : real, N : real\nreplace O-fst: fst(<M, N>) --> M\n");
  const auto r = reduce("fst(<1, 2>) + 3", replaced);
  EXPECT_EQ(r.reals, std::vector<double>{4.0});
  // the paper's O-fst fires after its premise (the pair's value); the user's on the term itself
  EXPECT_TRUE(has_line(r, "O-fst: fst(<1, 2>)"));
  const auto paper = reduce("fst(<1, 2>) + 3");
  EXPECT_NE(r.trace, paper.trace);
  EXPECT_TRUE(has_line(paper, "O-val: <1, 2>"));
  EXPECT_FALSE(has_line(r, "O-val: <1, 2>"));
  const auto& book =
      *replaced->compiled_as<simple_diff::CompiledRules>().book(simple_diff::paper_rules());
  EXPECT_EQ(book.info(*book.position("O-fst")).kind, RuleKind::user);
  EXPECT_EQ(book.position("O-fst"), simple_diff::paper_rules()->position("O-fst"));
  // where the user's left does not match, the paper's rule is gone: stuck
  EXPECT_THROW(reduce("fst(<1, <2, 3>>)", replaced), AdsemError);

  const auto removed = rules_from("remove O-add\n");
  try {
    reduce("1 + 2", removed);
    ADD_FAILURE() << "1 + 2 evaluated without O-add";
  } catch (const AdsemError& e) {
    EXPECT_NE(std::string(e.what()).find("no rule of ordinary evaluation applies"),
              std::string::npos);
  }
  EXPECT_EQ(reduce("fst(<1, 2>)", removed).reals, std::vector<double>{1.0});
}

TEST(SimpleDiffUserRules, ReplacedFig6ClauseCallsTheDifferentiation) {
  // R-add as printed, written as a rule: the right calls W.R_V(x. D) and W.R_V(x. E)
  const auto same = rules_from("meta W : real, V : real, D : real, E : real\n"
                               "replace R-add: W.rd[V](x:real. D + E)\n"
                               "  --> W.rd[V](x:real. D) + W.rd[V](x:real. E)\n");
  const auto r = reduce("grad[3](x:real. x + x * x)", same);
  EXPECT_EQ(r.reals, std::vector<double>{7.0});
  EXPECT_TRUE(std::ranges::any_of(r.trace, [](auto& l) { return l.starts_with("R-add: "); }));
  EXPECT_FALSE(std::ranges::any_of(r.trace, [](auto& l) { return l.starts_with("R-fast"); }));
  const auto wrong = rules_from("meta W : real, V : real, D : real, E : real\n"
                                "replace R-add: W.rd[V](x:real. D + E) --> W.rd[V](x:real. D)\n");
  EXPECT_EQ(reduce("grad[3](x:real. x + x * x)", wrong).reals, std::vector<double>{1.0});
}

TEST(SimpleDiffUserRules, ErrorsAreLocated) {
  const auto error = [](const std::string& text) {
    try {
      rules_from(text);
    } catch (const AdsemError& e) {
      return e.diagnostic();
    }
    ADD_FAILURE() << "no error for " << text;
    return Diagnostic{};
  };
  const Diagnostic unknown = error("meta M : real\nreplace O-ad: M + 0 --> M\n");
  EXPECT_EQ(unknown.kind, ErrorKind::parse);
  ASSERT_TRUE(unknown.pos);
  EXPECT_EQ(unknown.pos->line, 2);
  EXPECT_EQ(unknown.pos->column, 9);
  EXPECT_NE(unknown.message.find("O-add"), std::string::npos) << unknown.message;
  const Diagnostic priority = error("meta M : real\nadd-zero: M + 0 --> M priority 2\n");
  EXPECT_NE(priority.message.find("priority"), std::string::npos);
  const Diagnostic context = error("meta M : real\nreplace S-ctx: M + 0 --> M\n");
  EXPECT_NE(context.message.find("context rule"), std::string::npos);
  const Diagnostic twice = error("remove O-add\nremove O-add\n");
  ASSERT_TRUE(twice.pos);
  EXPECT_EQ(twice.pos->line, 2);
  // a replaced Fig. 6 clause removes R-fast; removing it again is no error
  EXPECT_NO_THROW(rules_from("meta W : real, V : real, D : real, E : real\n"
                             "replace R-add: W.rd[V](x:real. D + E)\n"
                             "  --> W.rd[V](x:real. D) + W.rd[V](x:real. E)\nremove R-fast\n"));
  const Diagnostic construct = error("meta M : real\nreplace O-let: M + 0 --> M\n");
  EXPECT_NE(construct.message.find("O-let fires on let"), std::string::npos) << construct.message;
}

TEST(SimpleDiffUserRules, WithoutRulesTheBookIsThePapers) {
  EXPECT_EQ(simple_diff::with_rules({}, "", nullptr).rules, simple_diff::paper_rules());
  const auto rules = rules_from("meta M : real\nadd-zero: M + 0 --> M\n");
  const auto& compiled = rules->compiled_as<simple_diff::CompiledRules>();
  EXPECT_EQ(compiled.fired_rule_names(), std::vector<std::string>{"add-zero"});
  // built once per mutant
  EXPECT_EQ(simple_diff::with_rules({}, "", rules.get()).rules,
            simple_diff::with_rules({}, "", rules.get()).rules);
}

reports::CampaignResult campaign(std::shared_ptr<const props::UserRules> rules,
                                 std::vector<std::string> properties, int trials,
                                 props::Overrides overrides = {}) {
  props::CampaignOptions o;
  o.overrides = std::move(overrides);
  o.calculi = {"simple-diff"};
  o.properties = std::move(properties);
  o.trials = trials;
  o.seed = 7;
  o.user_rules = std::move(rules);
  return props::run_campaign(registry(), o);
}

const reports::PropertySummary& summary(const reports::CampaignResult& r, const std::string& name) {
  for (const auto& p : r.properties)
    if (p.name == name) return p;
  throw std::logic_error("no property " + name);
}

TEST(SimpleDiffUserRules, CampaignCatchesTheLoopingRule) {
  const auto r =
      campaign(example("campaign-loop.rules"), {"simple-diff/operational-completeness"}, 100);
  EXPECT_EQ(summary(r, "simple-diff/operational-completeness").status, "failed");
}

// context-typing plugs a generated N of the redex's type into E; a rule file's targeted instance
// names the parameter `a`, not `x`, and N must be drawn over that name (it was drawn over `x`:
// "E[N] does not type-check: unbound variable 'x'", a false alarm for sound.rules).
TEST(SimpleDiffUserRules, ContextTypingDrawsNOverTheTermsParameter) {
  const auto r = campaign(example("sound.rules"), {"simple-diff/context-typing"}, 300);
  EXPECT_EQ(summary(r, "simple-diff/context-typing").status, "passed");
}

TEST(SimpleDiffUserRules, CampaignPassesTheHarmlessRuleAndFiresIt) {
  const std::vector<std::string> properties = {
      "simple-diff/operational-completeness", "simple-diff/operational-correctness",
      "simple-diff/operational-interpolation", "simple-diff/rd-matches-model",
      "simple-diff/linear-cost"};
  const auto r = campaign(example("campaign-harmless.rules"), properties, 100);
  for (const auto& p : properties) {
    const auto& s = summary(r, p);
    EXPECT_EQ(s.status, "passed") << p;
    // linear-cost differentiates its trace term without evaluating it: no added rule fires there
    if (p != "simple-diff/linear-cost") {
      EXPECT_GT(s.rules_fired.count("add-zero") ? s.rules_fired.at("add-zero") : 0, 0) << p;
    }
  }
  EXPECT_TRUE(r.counterexamples.empty());
}

TEST(SimpleDiffUserRules, TargetedTrialsAreInstancesOfTheRules) {
  // M + 0 is rare in generated terms: the rule fires because a share of the trials are C[σ(M + 0)]
  const auto fired = [](const reports::CampaignResult& r) {
    const auto& s = summary(r, "simple-diff/rd-matches-model");
    return s.rules_fired.count("add-zero") ? s.rules_fired.at("add-zero") : 0L;
  };
  const auto rules = example("campaign-harmless.rules");
  const long targeted = fired(campaign(rules, {"simple-diff/rd-matches-model"}, 100));
  const long untargeted = fired(
      campaign(rules, {"simple-diff/rd-matches-model"}, 100, {{"rules.targeted-share", "0"}}));
  EXPECT_GT(targeted, 4 * untargeted + 10) << targeted << " vs " << untargeted;
}

TEST(SimpleDiffUserRules, CampaignCatchesTheTransposedClause) {
  const auto r =
      campaign(example("campaign-transposed-r-fst.rules"), {"simple-diff/rd-matches-model"}, 30);
  EXPECT_EQ(summary(r, "simple-diff/rd-matches-model").status, "failed");
}

// A rule file that replaces a Fig. 6 clause removes R-fast, so rd runs Fig. 6 literally: a nested
// rd that R-fast differentiates in 70 steps takes 2,062,944 under the paper's own clauses. Running
// out of fuel there is the literal clauses' cost, not the replaced clause: operational-completeness
// compares with the paper's rules at the same cost before it blames the file.
TEST(SimpleDiffUserRules, BudgetIsComparedWithThePaperRulesAtTheSameCost) {
  using namespace simple_diff;
  const auto transposed = example("campaign-transposed-r-fst.rules");
  Options o = with_rules(Options{}, "", transposed.get());
  o.fuel = 5'000;
  const Options paper = oracle::paper_rules_at_same_cost(o);
  EXPECT_FALSE(oracle::runs_paper_rules(o));
  EXPECT_TRUE(oracle::runs_paper_rules(paper));
  EXPECT_EQ(paper.diff, DiffMode::literal);
  EXPECT_EQ(paper.fuel, o.fuel);
  const Term m = check_source("grad[x](v1:real. <x, v1>.rd[tanh(v1)](v2:real. "
                              "<log(mul(<x, x>) + 0.25), 2.75 + v2>))",
                              {{"x", real_type()}})
                     .term;
  EXPECT_TRUE(oracle::run(m, "x", real_type(), {-3.0}, o).unknown);
  EXPECT_TRUE(oracle::run(m, "x", real_type(), {-3.0}, paper).unknown);
  Options fast = o;
  fast.rules = paper_rules();
  EXPECT_TRUE(oracle::run(m, "x", real_type(), {-3.0}, fast).value.has_value());
  // a file that keeps R-fast is compared with R-fast: the looping rule still fails
  const auto loop = example("campaign-loop.rules");
  EXPECT_EQ(oracle::paper_rules_at_same_cost(with_rules(Options{}, "", loop.get())).diff,
            DiffMode::linear);
}

} // namespace
} // namespace adsem::user_rules_test
