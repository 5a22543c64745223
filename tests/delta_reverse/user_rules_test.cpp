// User rules joined to delta-reverse's semantics (`--rules`, properties/delta_reverse/
// user_rules.hpp): an added rule "LHS ⇓ V if RHS ⇓ V" fires deep inside an evaluation, replace
// and remove change the trace, a replaced translation clause (user_clauses.hpp) fires deep inside
// a translation, located errors, without user rules the book is the paper's, and the campaign
// examples (examples/rules/delta_reverse/campaign-*.rules) are told apart by a campaign.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/core/calculus.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/delta_reverse/user_rules.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "support/scratch.hpp"
#include "syntax/delta_reverse/parser.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse::user_rules_test {
namespace {

std::shared_ptr<const props::UserRules> load(const std::string& text) {
  static const props::Registry registry = cli::builtin_registry();
  const auto path = adsem::testing::scratch_path("dr-user.rules");
  std::ofstream(path.path()) << text;
  return props::load_user_rules(*registry.find("delta-reverse"), path.string());
}

// The error loading the file gives, or "no error".
std::string message(const std::string& text) {
  try {
    load(text);
  } catch (const AdsemError& e) {
    return e.what();
  }
  return "no error";
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

// The translation t of `term` by the book with the file's rules, its clause firings counted.
struct Translated {
  std::string printed;
  std::map<std::string, long, std::less<>> fired;
};
Translated translated(Translation t, const std::string& term,
                      const std::shared_ptr<const props::UserRules>& rules) {
  RunSetup setup;
  setup.rules = with_user_rules(paper_rules(), rules.get());
  setup.coverage = std::make_shared<RuleCounter>();
  Translated out;
  out.printed = print(translate(t, parse_term(term), setup));
  out.fired = setup.coverage->fired;
  return out;
}

long fired(const Translated& t, const std::string& rule) {
  const auto it = t.fired.find(rule);
  return it == t.fired.end() ? 0 : it->second;
}

// Under a λ and a let, so the application is not at the root of the translation.
constexpr const char* nested = R"(\(x : Real). let y = x in (\(z : Real). z) y)";

TEST(DeltaReverseUserRules, AReplacedClauseFiresDeepInsideATranslation) {
  // Fig. 9's clause for application with its two premises in the other order: visible in the
  // translation, at the application under λ and let
  const auto swapped = load("meta F : Real -> Real, A : Real\n"
                            "replace Drev[app]: F A --> do { x <- Drev(A); f <- Drev(F); f x }\n");
  const Translated user = translated(Translation::drev, nested, swapped);
  const Translated paper = translated(Translation::drev, nested, nullptr);
  EXPECT_NE(user.printed, paper.printed);
  // the argument's binder (x3) first; f and x are fresh for the whole input (spec §9.7)
  EXPECT_EQ(user.printed, "pure (\\(x : Real * Delta). do { y <- pure x; x3 <- pure y; "
                          "f4 <- pure (\\(z : Real * Delta). pure z); f4 x3 })");
  EXPECT_EQ(fired(user, "Drev[app]"), 1);
  EXPECT_EQ(fired(user, "Drev[λ]"), 2); // the paper's, above and inside the application
  EXPECT_EQ(fired(user, "Drev[app] (paper)"), 0);
  // the book lists the user's clause in the paper's place, kind user, the paper's kept after
  const RulesPtr book = with_user_rules(paper_rules(), swapped.get());
  EXPECT_EQ(*book->position("Drev[app]"), *paper_rules()->position("Drev[app]"));
  EXPECT_EQ(book->info(*book->position("Drev[app]")).kind, RuleKind::user);
  ASSERT_TRUE(book->position("Drev[app] (paper)").has_value());
  EXPECT_EQ(book->info(*book->position("Drev[app] (paper)")).kind, RuleKind::transformation);
}

TEST(DeltaReverseUserRules, AFaithfulClauseGivesThePapersTranslation) {
  const auto faithful = load("meta F : Real -> Real, A : Real\n"
                             "replace Drev[app]: F A --> do { f <- Drev(F); x <- Drev(A); f x }\n"
                             "meta E : Real\n"
                             "replace Dfwd[λ]: \\(y : Real). E --> \\(y : Real * Real). Dfwd(E)\n");
  // the binders f, x take the walk's fresh names in the paper's order: the same term
  for (const char* term : {nested, "\\(f : Real). \\(x : Real). (\\(g : Real -> Real). g) sin x"}) {
    EXPECT_EQ(translated(Translation::drev, term, faithful).printed,
              translated(Translation::drev, term, nullptr).printed)
        << term;
  }
  // Dfwd[λ] over Real binders: the user's clause at \(x : Real), the paper's (kept) at a binder
  // of another type
  const std::string pair = "\\(x : Real). \\(p : Real * Real). x";
  const Translated dfwd = translated(Translation::dfwd, pair, faithful);
  EXPECT_EQ(dfwd.printed, translated(Translation::dfwd, pair, nullptr).printed);
  EXPECT_EQ(fired(dfwd, "Dfwd[λ]"), 1);
  EXPECT_EQ(fired(dfwd, "Dfwd[λ] (paper)"), 1);
}

// Loading `text` fails with an error that says each of `parts`.
void expect_error(const std::string& text, std::initializer_list<std::string_view> parts) {
  const std::string error = message(text);
  for (const std::string_view part : parts) {
    EXPECT_NE(error.find(part), std::string::npos) << error;
  }
}

TEST(DeltaReverseUserRules, ClauseErrorsAreLocated) {
  // Fig. 14's last line as printed (spec §11 item 3): (y, d) with d the DeltaId is ill-typed
  expect_error("replace Drev[op]: sin --> pure (\\(p : Real * Delta). let x = fst p in\n"
               "  let u = snd p in do { d <- deltaLet (Scale(cos x, u)); pure (sin x, d) })\n",
               {"1:27: type error", "M (Real * Delta -> M (Real * DeltaId))"});
  expect_error("meta F : Real -> Real, A : Real\nreplace Drev[app]: F A --> Dfwd(F)\n",
               {"2:28", "calls Drev, not Dfwd"});
  expect_error("replace Drev[r]: 1.0 --> Drev(1.0)\n", {"1:31", "as Drev(M)"});
  expect_error("meta E : Real\nreplace Drev[app]: \\(y : Real). E --> Drev(E)\n",
               {"2:20", "one construct"});
  expect_error("meta F : Real -> Real, A : Real\n"
               "replace Drev[app]: F A --> do { f <- Drev(F); x <- Drev(A); f x } when x # A\n",
               {"2:72", "no side condition"});
}

TEST(DeltaReverseUserRules, LocatedErrors) {
  const std::string unknown = message("remove E-Lett\n");
  EXPECT_NE(unknown.find("1:8"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("E-Let"), std::string::npos) << unknown;
  // a clause gives the translation's type: Drev{r} : M (Real * Delta), not Real
  const std::string clause = message("meta E : Real\nreplace Drev[r]: E --> E\n");
  EXPECT_NE(clause.find("2:24"), std::string::npos) << clause;
  EXPECT_NE(clause.find("M (Real * Delta)"), std::string::npos) << clause;
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
                                 props::Overrides overrides = {}, long trials = 40) {
  static const props::Registry registry = cli::builtin_registry();
  props::CampaignOptions o;
  o.calculi = {"delta-reverse"};
  o.properties = props;
  o.trials = trials;
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
  const auto r =
      campaign("campaign-duplicate-work.rules",
               {"delta-reverse/tape-invariants", "delta-reverse/adequacy",
                "delta-reverse/reverse-correctness", "delta-reverse/overloading-tape-agrees"});
  EXPECT_GT(summary(r, "delta-reverse/tape-invariants").failed, 0);
  EXPECT_EQ(summary(r, "delta-reverse/adequacy").failed, 0);
  EXPECT_EQ(summary(r, "delta-reverse/reverse-correctness").failed, 0);
  // the rule rewrites the overloading run's source and not Drev's target terms: the tapes differ,
  // the gradients agree within tolerance, which is what the property asks with a rule file
  EXPECT_EQ(summary(r, "delta-reverse/overloading-tape-agrees").failed, 0);
}

// The sound source rewrites of sound.rules (distributivity, associativity, fst of a pair, ...)
// change the rounding of the runs they rewrite, and `fst (A, B) --> A` the overloading run's
// domain: with a rule file the properties that compare two runs bit for bit (adequacy against
// the model, primal-preservation, overloading-tape-agrees) compare within the exact-value and
// derivative tolerances, and a point one run alone stops at is a discard, so a sound file is no
// false alarm; a wrong Fig. 14 row is still caught.
TEST(DeltaReverseUserRules, ASoundRuleFileIsNoFalseAlarm) {
  const std::vector<std::string> checked = {"delta-reverse/adequacy",
                                            "delta-reverse/primal-preservation",
                                            "delta-reverse/overloading-tape-agrees"};
  const auto r = campaign("sound.rules", checked, {}, 300);
  for (const std::string& p : checked)
    EXPECT_EQ(summary(r, p).failed, 0) << p;
  const std::string p = "delta-reverse/overloading-tape-agrees";
  EXPECT_GT(summary(campaign("campaign-cos-sign.rules", {p}), p).failed, 0);
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

// Checks that every property of `checked` passed; the times `rule` fired over them.
long fired_where_all_pass(const reports::CampaignResult& r, const std::vector<std::string>& checked,
                          const std::string& rule) {
  long fired = 0;
  for (const std::string& p : checked) {
    EXPECT_EQ(summary(r, p).failed, 0) << p;
    const auto& counts = summary(r, p).rules_fired;
    if (const auto it = counts.find(rule); it != counts.end()) fired += it->second;
  }
  return fired;
}

// (b) a harmless rule (let commuting conversion): every property passes, and the rule fired.
TEST(DeltaReverseUserRules, TheCampaignPassesAHarmlessRuleThatFired) {
  const std::vector<std::string> checked = {"delta-reverse/adequacy",
                                            "delta-reverse/primal-preservation",
                                            "delta-reverse/tape-invariants",
                                            "delta-reverse/reverse-correctness",
                                            "delta-reverse/reverse-versions-agree",
                                            "delta-reverse/overloading-tape-agrees"};
  const auto r = campaign("campaign-harmless.rules", checked);
  EXPECT_GT(fired_where_all_pass(r, checked, "let-assoc"), 0);
}

// (c) Fig. 14's cos row with its sign dropped: reverse-correctness fails.
TEST(DeltaReverseUserRules, TheCampaignFailsTheCosRowWithoutItsSign) {
  const auto r = campaign("campaign-cos-sign.rules", {"delta-reverse/reverse-correctness"});
  EXPECT_GT(summary(r, "delta-reverse/reverse-correctness").failed, 0);
}

// A paper clause restated (Drev[app], Fig. 9): every property passes, and the clause fired.
TEST(DeltaReverseUserRules, TheCampaignPassesAFaithfulClause) {
  const std::vector<std::string> checked = {
      "delta-reverse/translation-typing", "delta-reverse/reverse-correctness",
      "delta-reverse/tape-invariants", "delta-reverse/separate-compilation"};
  const auto r = campaign("campaign-clause-drev-app.rules", checked);
  EXPECT_GT(fired_where_all_pass(r, checked, "Drev[app]"), 0);
  EXPECT_TRUE(reports::user_rule_failures(r).empty());
}

// Drev's clause for cos with the sign of its derivative dropped: reverse-correctness fails, the
// forward translation (the paper's) passes.
TEST(DeltaReverseUserRules, TheCampaignCatchesAWrongClause) {
  const auto r = campaign("campaign-clause-cos-sign.rules", {"delta-reverse/reverse-correctness",
                                                             "delta-reverse/forward-correctness"});
  EXPECT_GT(summary(r, "delta-reverse/reverse-correctness").failed, 0);
  EXPECT_EQ(summary(r, "delta-reverse/forward-correctness").failed, 0);
}

} // namespace
} // namespace adsem::delta_reverse::user_rules_test
