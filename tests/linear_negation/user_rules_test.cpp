// User rules joined to linear-negation's semantics (`--rules`, docs/rules/linear-negation.md
// "Joining the semantics"): where an added rule fires, replace and remove in traces, located
// errors, the paper's book without a file, and the three campaign examples of
// examples/rules/linear_negation/.
#include <fstream>

#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/linear_negation/frontend.hpp"
#include "properties/linear_negation/user_rules.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/program.hpp"
#include "semantics/linear_negation/relations.hpp"
#include "syntax/linear_negation/parser.hpp"

namespace adsem::linear_negation::user_rules_test {
namespace {

const props::CalculusEntry& calculus() {
  static const auto registry = cli::builtin_registry();
  return *registry.find("linear-negation");
}

std::shared_ptr<const props::UserRules> load_text(const std::string& name,
                                                  const std::string& text) {
  const std::string path = ::testing::TempDir() + "ln-" + name + ".rules";
  std::ofstream(path) << text;
  return props::load_user_rules(calculus(), path);
}

std::shared_ptr<const props::UserRules> load_example(const std::string& file) {
  return props::load_user_rules(calculus(), std::string(ADSEM_SOURCE_DIR) +
                                                "/examples/rules/linear_negation/" + file);
}

props::EvalResult reduce(const std::string& term,
                         std::shared_ptr<const props::UserRules> rules = nullptr) {
  props::EvalOptions o;
  o.user_rules = std::move(rules);
  return Frontend().reduce(term, o);
}

const std::string mul_one = "meta M : R\nmul-one: M * 1 --> M  priority 1\n";

TEST(LinearNegationUserRules, AnAddedRuleFiresDeepInsideTheTerm) {
  const auto rules = load_text("mul-one", mul_one);
  const auto r = reduce("(3 * 1) + 4", rules);
  ASSERT_FALSE(r.trace.empty());
  EXPECT_EQ(r.trace.front(), "mul-one: 3 + 4"); // the redex 3 * 1 is a summand, not the term
  EXPECT_EQ(r.value, "7");
  EXPECT_EQ(reduce("(3 * 1) + 4").trace.front(), "mul-14: 3 + 4");
  // under a linear abstraction, where no rule of Table 2 fires
  const auto lin = reduce("\\a:R. a * 1", rules);
  EXPECT_EQ(lin.trace, std::vector<std::string>{"mul-one: \\a:R. a"});
  EXPECT_TRUE(reduce("\\a:R. a * 1").trace.empty());
}

TEST(LinearNegationUserRules, AMetavariableBindsOnlyWhatItsBindersAllow) {
  // M may not mention y (y # M): (\y:!R. y) 1 is no instance, (\y:!R. 5) 1 is
  const auto rules =
      load_text("drop", "meta M : R, N : R\nreplace beta-7: (\\y:!R. M) N --> M  when y # M\n");
  EXPECT_EQ(reduce("(\\x:!R. 5) 1", rules).trace, std::vector<std::string>{"beta-7: 5"});
  EXPECT_TRUE(reduce("(\\x:!R. x) 1", rules).trace.empty());
  // the same metavariable twice: only α-equivalent subterms
  const auto twice = load_text("twice", "meta M : R\ndouble: M + M --> 2 * M  priority 1\n");
  EXPECT_EQ(reduce("(\\b:!R. b) 3 + (\\c:!R. c) 3", twice).trace.front(),
            "double: 2 * (\\b:!R. b) 3");
  EXPECT_NE(reduce("(\\b:!R. b) 3 + (\\c:!R. c) 4", twice).trace.front().substr(0, 7), "double:");
}

TEST(LinearNegationUserRules, ReplaceAndRemoveChangeTheTrace) {
  const auto paper = reduce("(\\x:!R. 5) 1");
  EXPECT_EQ(paper.trace, (std::vector<std::string>{"beta-7: (5)[x:!R := 1]", "gc-10: 5"}));
  const auto replaced =
      load_text("replace", "meta M : R, N : R\nreplace beta-7: (\\y:!R. M) N --> M  when y # M\n");
  EXPECT_EQ(reduce("(\\x:!R. 5) 1", replaced).trace, std::vector<std::string>{"beta-7: 5"});
  const auto removed = load_text("remove", "remove gc-10\n");
  const auto r = reduce("(\\x:!R. 5) 1", removed);
  EXPECT_EQ(r.trace, std::vector<std::string>{"beta-7: (5)[x:!R := 1]"});
  // the book: the replaced entry keeps its name and place and becomes a user rule
  const RulesPtr book = book_for("", replaced.get());
  EXPECT_EQ(book->position("beta-7"), paper_rules()->position("beta-7"));
  EXPECT_EQ(book->info(*book->position("beta-7")).kind, RuleKind::user);
  EXPECT_FALSE(book_for("", removed.get())->position("gc-10"));
}

TEST(LinearNegationUserRules, ReplacingAClauseOfDChangesTheGradient) {
  const std::string source = "\\x1:R. \\x2:R. x1 + x2";
  props::EvalOptions o;
  EXPECT_EQ(Frontend().grad(source, {1, 2}, "backprop", o).gradient, (std::vector<double>{1, 1}));
  // D(t + u) without the second summand's backpropagator
  o.user_rules = load_text("d-add", "meta M : R, N : R\n"
                                    "replace D-add: M + N --> let (x, dx) = D(M) in\n"
                                    "  let (y, dy) = D(N) in (x + y, \\a:R. dx a)\n");
  EXPECT_EQ(Frontend().grad(source, {1, 2}, "backprop", o).gradient, (std::vector<double>{1, 0}));
}

TEST(LinearNegationUserRules, ClausesOfDAsTheyArePrintedGiveThePapersGradient) {
  // Table 3b's clauses for numerals (a lone metavariable: every numeral) and for abstractions
  // over R, written as rules
  props::EvalOptions o;
  o.user_rules = load_text("d-paper", "meta M : R\n"
                                      "replace D-num: M --> (M, \\a:R. 0)\n"
                                      "replace D-lam: \\y:!R. M --> \\y:!(R * (R -o R)). D(M)\n");
  const std::string source = "\\x1:R. (\\y:R. y * x1 + 3) 2";
  const auto g = Frontend().grad(source, {5}, "backprop", o);
  EXPECT_EQ(g.value, 13);
  EXPECT_EQ(g.gradient, std::vector<double>{2});
  // a clause that does not match a node of its former stops D, naming the clause
  try {
    (void)Frontend().grad("\\x1:R. (\\f:R -> R. f x1) (\\y:R. y)", {5}, "backprop", o);
    ADD_FAILURE() << "no error";
  } catch (const AdsemError& e) {
    EXPECT_NE(e.diagnostic().message.find("D-lam"), std::string::npos) << e.diagnostic().message;
  }
}

TEST(LinearNegationUserRules, ErrorsAreLocated) {
  const auto error_of = [](const std::string& text) {
    try {
      (void)load_text("error", text);
    } catch (const AdsemError& e) {
      return e.diagnostic().render();
    }
    return std::string("no error");
  };
  const std::string unknown = error_of("meta M : R\nreplace beta-8: M * 1 --> M\n");
  EXPECT_NE(unknown.find("2:9: parse error: linear-negation has no rule 'beta-8'"),
            std::string::npos)
      << unknown;
  EXPECT_NE(unknown.find("beta-7"), std::string::npos) << unknown;
  EXPECT_NE(error_of("remove D-num\n").find("1:8:"), std::string::npos);
  // the read-back of Cor. 16 and Prop. 1's seeding are definitions, not rewriting rules
  const std::string read_back = error_of("remove read-back-A\n");
  EXPECT_NE(read_back.find("1:8: parse error: read-back-A is a definition"), std::string::npos)
      << read_back;
  EXPECT_NE(error_of("meta M : R\nreplace seed-prop-1: M --> M\n").find("2:9:"), std::string::npos);
  // so are the clauses of Def. 10's bp
  const std::string bp_sum = error_of("meta M : R, N : R\nreplace bp-sum: M + N --> M\n");
  EXPECT_NE(bp_sum.find("2:9: parse error: bp-sum is a clause of Def. 10"), std::string::npos)
      << bp_sum;
  EXPECT_NE(error_of("remove bp-var\n").find("1:8:"), std::string::npos);
  EXPECT_NE(error_of("remove fwd-add\n").find("1:8: parse error: fwd-add is a clause"),
            std::string::npos);
  // and the rules of ≡ (Table 2d), which no strategy fires
  const std::string equiv = error_of("remove equiv-18\n");
  EXPECT_NE(equiv.find("1:8: parse error: equiv-18 is a rule of the structural equivalence"),
            std::string::npos)
      << equiv;
  EXPECT_EQ(error_of("meta M : R\nm: M * 1 --> M priority 9\n"),
            "2:16: parse error: priority 9: S_bp's priority classes are 1 to 7 "
            "(docs/rules/linear-negation.md)");
  EXPECT_NE(error_of("meta M : R\nmul-14: M * 1 --> M\n").find("replace mul-14"),
            std::string::npos);
  // the spurious line D(tu) := D(t)·D(u) of Table 3b (spec errata 3) does not type-check
  const std::string erratum =
      error_of("meta M : R, N : R\nreplace D-prim: M * N --> D(M) * D(N)\n");
  EXPECT_EQ(erratum, "2:27: type error: argument of mul has type R * (R -o R), expected R");
}

TEST(LinearNegationUserRules, WithoutAFileTheBookIsThePapers) {
  EXPECT_EQ(book_for("", nullptr), paper_rules());
  const auto rules = load_text("mul-one", mul_one);
  const RulesPtr book = book_for("", rules.get());
  ASSERT_EQ(book->size(), paper_rules()->size() + 1);
  EXPECT_EQ(book->info(book->size() - 1).name, "mul-one");
  EXPECT_EQ(book_for("", rules.get()), book); // built once
  EXPECT_EQ(rules->compiled->fired_rule_names(), std::vector<std::string>{"mul-one"});
}

reports::CampaignResult campaign(std::shared_ptr<const props::UserRules> rules,
                                 std::vector<std::string> properties, int trials,
                                 props::Overrides overrides = {}) {
  static const auto registry = cli::builtin_registry();
  props::CampaignOptions o;
  o.calculi = {"linear-negation"};
  o.properties = std::move(properties);
  o.trials = trials;
  o.seed = 20261125;
  o.user_rules = std::move(rules);
  o.overrides = std::move(overrides);
  return props::run_campaign(registry, o);
}

const reports::PropertySummary& summary(const reports::CampaignResult& r, const std::string& p) {
  for (const auto& s : r.properties)
    if (s.name == "linear-negation/" + p) return s;
  throw std::logic_error("no property " + p);
}

TEST(LinearNegationUserRules, ASoundRuleThatLoopsFailsNormalisation) {
  // a smaller fuel than the default 200 000 steps: each looping trial (and shrink) runs it out
  const props::Overrides fuel{{"fuel", "20000"}};
  const auto r = campaign(load_example("campaign-sum-commutes.rules"),
                          {"linear-negation/normalisation"}, 60, fuel);
  EXPECT_EQ(summary(r, "normalisation").status, "failed");
  EXPECT_EQ(summary(campaign(nullptr, {"linear-negation/normalisation"}, 60, fuel), "normalisation")
                .status,
            "passed");
}

long times_fired(const reports::CampaignResult& r, const std::string& rule) {
  long fired = 0;
  for (const auto& s : r.properties)
    if (const auto it = s.rules_fired.find(rule); it != s.rules_fired.end()) fired += it->second;
  return fired;
}

TEST(LinearNegationUserRules, AHarmlessRulePassesAndFires) {
  const auto r = campaign(load_example("campaign-sub-zero.rules"), {}, 40);
  for (const auto& s : r.properties)
    EXPECT_TRUE(reports::is_passing_status(s.status)) << s.name << ": " << s.status;
  for (const auto& c : r.counterexamples)
    ADD_FAILURE() << c.property << ": " << c.message << " on " << c.term;
  EXPECT_GT(times_fired(r, "sub-zero"), 0);
}

TEST(LinearNegationUserRules, ARuleMatchedLiterallyBreaksTheBisimulation) {
  const auto r = campaign(load_example("campaign-mul-one-literal.rules"),
                          {"linear-negation/equivalence-bisimulation"}, 100);
  EXPECT_EQ(summary(r, "equivalence-bisimulation").status, "failed");
  ASSERT_FALSE(r.counterexamples.empty());
  EXPECT_NE(r.counterexamples.front().message.find("the mul-one redex is gone"), std::string::npos)
      << r.counterexamples.front().message;
}

TEST(LinearNegationUserRules, FactoringAtArrowTypeIsCaught) {
  const auto r =
      campaign(load_example("campaign-factor-at-arrow.rules"),
               {"linear-negation/step-soundness", "linear-negation/unique-normal-forms"}, 100);
  EXPECT_EQ(summary(r, "step-soundness").status, "failed");
  EXPECT_EQ(summary(r, "unique-normal-forms").status, "failed");
}

const std::string lin_scale = "meta F : R -o R, M : R, N : R\n"
                              "lin-scale: F (M * N) --> M * F N  priority 1\n";

TEST(LinearNegationUserRules, AMetavariableMatchesOnlyTermsOfItsType) {
  const auto rules = load_text("lin-scale", lin_scale);
  // F : R -o R is a linear map: an exponential variable bound at R -> R is none (h 6 is 1, never
  // 2 * h 3), nor is a linear abstraction into R × R (2 * (3, 3) would be stuck)
  const auto arrow = reduce("(\\h:!(R -> R). h (2 * 3)) (\\y:!R. 1)", rules);
  EXPECT_EQ(arrow.value, "1");
  for (const std::string& step : arrow.trace)
    EXPECT_NE(step.substr(0, 10), "lin-scale:") << step;
  EXPECT_EQ(reduce("(\\a:R. (a, a)) (2 * 3)", rules).value, "(6, 6)");
  // a linear map into R is one
  const auto linear = reduce("(\\a:R. a + a) (2 * 3)", rules);
  ASSERT_FALSE(linear.trace.empty());
  EXPECT_EQ(linear.trace.front(), "lin-scale: 2 * (\\a:R. a + a) 3");
  EXPECT_EQ(linear.value, "12");
}

props::TrialResult check_term(const std::string& property, const std::string& term,
                              std::shared_ptr<const props::UserRules> rules) {
  const props::CalculusEntry& entry = calculus();
  const auto p = std::ranges::find(entry.properties, "linear-negation/" + property,
                                   [](const props::PropertyDef& d) { return d.name; });
  if (p == entry.properties.end()) throw std::logic_error("no property " + property);
  props::PropertyContext context;
  context.user_rules = std::move(rules);
  return p->check_input(context, std::any(elaborate(parse_term(term, signature()))));
}

TEST(LinearNegationUserRules, ASoundRuleThatMovesRoundingIsNoFalseAlarm) {
  // f(f(f(1))) ≈ -1.1e7 for f(y) = y (y + 1)(y - 3.48): mult-distrib computes it in another order,
  // and cos amplifies the rounding moved to about 1e-9 relative, past exact-value; within the
  // rounding magnitude of the term's interval enclosure it is no failure
  const std::string term = "(\\f1:!(R -> R). cos(f1 (f1 (f1 1)))) "
                           "(\\y2:!R. y2 * ((y2 + 1) * ((-2) + (-1.48) + y2)))";
  const auto distrib = load_text("distrib", "meta M : R, N : R, P : R\n"
                                            "mult-distrib: M * (N + P) --> M * N + M * P\n");
  EXPECT_EQ(check_term("unique-normal-forms", term, distrib).kind, props::TrialResult::Kind::pass)
      << check_term("unique-normal-forms", term, distrib).reason;
  // an unsound rule on the same term still fails
  const auto wrong = load_text("wrong", "meta M : R, N : R, P : R\n"
                                        "mult-wrong: M * (N + P) --> M * N + P\n");
  EXPECT_EQ(check_term("unique-normal-forms", term, wrong).kind, props::TrialResult::Kind::fail);
}

} // namespace
} // namespace adsem::linear_negation::user_rules_test
