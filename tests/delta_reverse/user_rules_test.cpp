// User rules joined to delta-reverse's semantics (`--rules`, properties/delta_reverse/
// user_rules.hpp): an added rule "LHS ⇓ V if RHS ⇓ V" fires deep inside an evaluation, replace
// and remove change the trace, located errors, without user rules the book is the paper's, and
// the three campaign examples (examples/rules/delta_reverse/campaign-*.rules) are told apart by a
// campaign.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/core/calculus.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/delta_reverse/user_rules.hpp"

namespace adsem::delta_reverse {
namespace {

std::shared_ptr<const props::UserRules> load(const std::string& text) {
  static const props::Registry registry = cli::builtin_registry();
  const auto path = std::filesystem::temp_directory_path() /
                    ("adsem-dr-user-rules-" + std::to_string(::getpid()) + ".rules");
  std::ofstream(path) << text;
  auto rules = props::load_user_rules(*registry.find("delta-reverse"), path.string());
  std::filesystem::remove(path);
  return rules;
}

props::EvalResult eval(const std::string& term, std::shared_ptr<const props::UserRules> rules) {
  static const props::Registry registry = cli::builtin_registry();
  props::EvalOptions options;
  options.trace = true;
  options.user_rules = std::move(rules);
  return registry.find("delta-reverse")->frontend->eval(term, options);
}

// A let-bound function whose body multiplies by 1.0, applied twice under an addition: the rule
// fires at the body, deep inside the evaluation, once per call.
constexpr const char* deep = R"(let f = \(x : Real). x * 1.0 in f 3.0 + f 4.0)";

TEST(DeltaReverseUserRules, AnAddedRuleFiresDeepInsideTheEvaluation) {
  const auto rules = load("meta E : Real\nmul-one: E * 1.0 --> E\n");
  const props::EvalResult with = eval(deep, rules);
  const props::EvalResult without = eval(deep, nullptr);
  EXPECT_EQ(with.value, without.value);
  std::vector<std::size_t> fired;
  for (std::size_t i = 0; i < with.trace.size(); ++i)
    if (with.trace[i].rfind("mul-one: ", 0) == 0) fired.push_back(i);
  ASSERT_EQ(fired.size(), 2U);
  EXPECT_GT(fired[0], 0U); // not at the root
  EXPECT_EQ(with.trace[fired[0]], "mul-one: x * 1.0");
  EXPECT_EQ(with.trace[fired[0] + 1], "E-Var: x"); // then RHS = M = x is evaluated
  // the rule replaces E-App, E-Op, E-Pair, E-Var, E-Real, E-Apply-Op of x * 1.0 by one step
  EXPECT_LT(with.steps, without.steps);
}

TEST(DeltaReverseUserRules, ReplaceAndRemoveChangeTheTrace) {
  // E-Let replaced by "let x = e1 in e2 ⇓ V if (λx. e2) e1 ⇓ V" (a sound rewrite, more steps)
  const auto replaced =
      load("meta A : Real, B : Real\nreplace E-Let: let y = A in B --> (\\(y : Real). B) A\n");
  const props::EvalResult r = eval("let z = 2.0 in z + z", replaced);
  EXPECT_EQ(r.value, "4.0");
  ASSERT_FALSE(r.trace.empty());
  EXPECT_EQ(r.trace[0], "E-Let: let z = 2.0 in z + z");
  EXPECT_EQ(r.trace[1].rfind("E-App: ", 0), 0U) << r.trace[1];
  // removing E-Real leaves a real literal with no rule
  const auto removed = load("remove E-Real\n");
  EXPECT_THROW(eval("1.0 + 2.0", removed), AdsemError);
  EXPECT_EQ(eval("(1, 2)", removed).value, "(1, 2)");
}

TEST(DeltaReverseUserRules, LocatedErrors) {
  const auto message = [](const std::string& text) {
    try {
      load(text);
    } catch (const AdsemError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string unknown = message("remove E-Lett\n");
  EXPECT_NE(unknown.find("1:8"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("E-Let"), std::string::npos) << unknown;
  const std::string clause = message("meta E : Real\nreplace Drev[r]: E --> E\n");
  EXPECT_NE(clause.find("2:9"), std::string::npos) << clause;
  EXPECT_NE(clause.find("translation"), std::string::npos) << clause;
  const std::string delta = message("meta E : Real\nreplace eval-Var: E --> E\n");
  EXPECT_NE(delta.find("run-time values"), std::string::npos) << delta;
  const std::string priority = message("meta E : Real\np: E * 1.0 --> E priority 2\n");
  EXPECT_NE(priority.find("linear-negation"), std::string::npos) << priority;
}

TEST(DeltaReverseUserRules, WithoutUserRulesTheBookIsThePapers) {
  EXPECT_EQ(with_user_rules(paper_rules(), nullptr), paper_rules());
  const auto rules = load("meta E : Real\nmul-one: E * 1.0 --> E\n");
  const RulesPtr book = with_user_rules(paper_rules(), rules.get());
  EXPECT_EQ(book, with_user_rules(paper_rules(), rules.get())); // built once
  EXPECT_EQ(book->size(), paper_rules()->size() + 1);
  EXPECT_EQ(book->info(book->size() - 1).kind, RuleKind::user);
  EXPECT_EQ(rules->compiled->fired_rule_names(), std::vector<std::string>{"mul-one"});
}

reports::CampaignResult campaign(const std::string& file, const std::vector<std::string>& props,
                                 props::Overrides overrides = {}) {
  static const props::Registry registry = cli::builtin_registry();
  props::CampaignOptions o;
  o.calculi = {"delta-reverse"};
  o.properties = props;
  o.trials = 40;
  o.seed = 7;
  o.overrides = std::move(overrides);
  o.user_rules = props::load_user_rules(
      *registry.find("delta-reverse"),
      (std::filesystem::path(ADSEM_SOURCE_DIR) / "examples" / "rules" / "delta_reverse" / file)
          .string());
  return props::run_campaign(registry, o);
}

const reports::PropertySummary& summary(const reports::CampaignResult& r, const std::string& name) {
  const auto it = std::ranges::find_if(r.properties, [&](const auto& p) { return p.name == name; });
  if (it == r.properties.end()) throw std::logic_error("no property " + name);
  return *it;
}

// (a) a sound rule (A * 2.0 --> A + A) that makes the primal do more real primitive calls than
// Drev's tape has bindings: tape-invariants fails (§7.4 (b)), the value and gradient properties
// pass.
TEST(DeltaReverseUserRules, TheCampaignFailsASoundRuleThatAddsWork) {
  const auto r = campaign("campaign-duplicate-work.rules",
                          {"delta-reverse/tape-invariants", "delta-reverse/adequacy",
                           "delta-reverse/reverse-correctness"});
  EXPECT_GT(summary(r, "delta-reverse/tape-invariants").failed, 0);
  EXPECT_EQ(summary(r, "delta-reverse/adequacy").failed, 0);
  EXPECT_EQ(summary(r, "delta-reverse/reverse-correctness").failed, 0);
}

// Targeted trials: programs rarely multiply by 2.0, so the rule fires on the instances
// C[σ(A * 2.0)] the targeted share draws, and not at all with that share at 0.
TEST(DeltaReverseUserRules, TargetedTrialsDrawInstancesOfTheRules) {
  const auto fired = [](const reports::CampaignResult& r) {
    const auto& counts = summary(r, "delta-reverse/adequacy").rules_fired;
    const auto it = counts.find("double-as-sum");
    return it == counts.end() ? 0L : it->second;
  };
  EXPECT_GT(fired(campaign("campaign-duplicate-work.rules", {"delta-reverse/adequacy"})), 0);
  EXPECT_EQ(fired(campaign("campaign-duplicate-work.rules", {"delta-reverse/adequacy"},
                           {{"rules.targeted-share", "0"}})),
            0);
}

// (b) a harmless rule (let commuting conversion): every property passes, and the rule fired.
TEST(DeltaReverseUserRules, TheCampaignPassesAHarmlessRuleThatFired) {
  const std::vector<std::string> checked = {
      "delta-reverse/adequacy", "delta-reverse/primal-preservation",
      "delta-reverse/tape-invariants", "delta-reverse/reverse-correctness",
      "delta-reverse/reverse-versions-agree"};
  const auto r = campaign("campaign-harmless.rules", checked);
  long fired = 0;
  for (const std::string& p : checked) {
    EXPECT_EQ(summary(r, p).failed, 0) << p;
    const auto& counts = summary(r, p).rules_fired;
    if (const auto it = counts.find("let-assoc"); it != counts.end()) fired += it->second;
  }
  EXPECT_GT(fired, 0);
}

// (c) Fig. 14's cos row with its sign dropped: reverse-correctness fails.
TEST(DeltaReverseUserRules, TheCampaignFailsTheCosRowWithoutItsSign) {
  const auto r = campaign("campaign-cos-sign.rules", {"delta-reverse/reverse-correctness"});
  EXPECT_GT(summary(r, "delta-reverse/reverse-correctness").failed, 0);
}

} // namespace
} // namespace adsem::delta_reverse
