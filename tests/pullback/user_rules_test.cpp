// User rules joined to pullback's semantics (properties/pullback/user_rules.hpp): an added rule
// fires deep inside a reduction, replace and remove change traces, errors are located, the book
// without rules is the paper's, and the three campaign examples (examples/rules/pullback/
// campaign-*.rules) are told apart by a campaign.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "cli/builtin_registry.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/pullback/frontend.hpp"
#include "properties/pullback/user_rules.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "semantics/pullback/strategy.hpp"
#include "syntax/pullback/printer.hpp"
#include "syntax/pullback/typecheck.hpp"

namespace adsem::pullback::user_rules_test {
namespace {

const props::Registry& registry() {
  static const props::Registry r = cli::builtin_registry();
  return r;
}

std::shared_ptr<const props::UserRules> load(const std::filesystem::path& path) {
  return props::load_user_rules(*registry().find("pullback"), path.string());
}

std::shared_ptr<const props::UserRules> load_text(const std::string& name,
                                                  const std::string& text) {
  const auto path = std::filesystem::path(::testing::TempDir()) / (name + ".rules");
  std::ofstream(path) << text;
  return load(path);
}

std::filesystem::path example(const std::string& name) {
  return std::filesystem::path(ADSEM_SOURCE_DIR) / "examples" / "rules" / "pullback" / name;
}

// Every step of the run: the rule, the path of its redex and the term after it.
std::vector<Step> steps(const Term& t, const Rules& rules) {
  RunOptions o;
  o.fuel = 5'000;
  Machine m(rules, o);
  std::vector<Step> out;
  Term current = t;
  while (auto s = m.step(current)) {
    current = s->result;
    out.push_back(std::move(*s));
  }
  return out;
}

std::vector<std::string> rule_sequence(const std::vector<Step>& run) {
  std::vector<std::string> out;
  for (const Step& s : run)
    out.push_back(s.rule);
  return out;
}

TEST(PullbackUserRules, AnAddedRuleFiresDeepInsideTheReduction) {
  const auto user = load(example("campaign-harmless.rules"));
  const Rules rules = rules_for("", user);
  EXPECT_EQ(rules.book->size(), paper_rules()->size() + 1);
  EXPECT_EQ(rules.book->info(rules.book->size() - 1).kind, RuleKind::user);
  // row 13c gives the dual-map body <v.1, v.2>, reduced under its binder (§3.4)
  const Term query = parse_closed("((Omega \\p:R * R. <p.1, p.2>) @ Omega[1, 1]) [2, 3]");
  const std::vector<Step> run = steps(query, rules);
  const auto fired = std::ranges::find_if(run, [](const Step& s) { return s.rule == "pair-eta"; });
  ASSERT_NE(fired, run.end()) << fmt::format("{}", fmt::join(rule_sequence(run), " "));
  EXPECT_FALSE(fired->path.empty()); // inside the dual map's body, not at the root
  EXPECT_EQ(print(run.back().result), print(normalise(query).result)); // the same gradient
  EXPECT_EQ(std::ranges::count(rule_sequence(steps(query, rules_for(""))), "pair-eta"), 0);
}

// An added row is offered where the paper's row is stuck because its premise FAILs: row 18's
// JAC on λx.f y, f foreign, reaches no Jacobian body (spec §4.5).
TEST(PullbackUserRules, AnAddedRowIsOfferedWhereAPremiseFails) {
  const auto user =
      load_text("row", "meta M : R, W : Omega (R -> R), V : R\n"
                       "foreign-lam: ((Omega \\y:R. \\x:R. M) @ W) V --> (zero : R^*)\n");
  const Term stuck = annotate_zeros(parse(
      "((Omega \\y:R. \\x:R. f y) @ om) 3",
      {{"f", arrow(real_type(), real_type())}, {"om", one_form(arrow(real_type(), real_type()))}}));
  // A-normalisation and rule 7 make the body final; then the paper is stuck
  EXPECT_EQ(rule_sequence(steps(stuck, rules_for(""))), (std::vector<std::string>{"A*", "7"}));
  EXPECT_EQ(rule_sequence(steps(stuck, rules_for("", user))),
            (std::vector<std::string>{"A*", "7", "foreign-lam"}));
  // unique-decomposition's enumeration counts the user redex there (Lemma 3.8: exactly one)
  const Term at_row = steps(stuck, rules_for("")).back().result;
  EXPECT_TRUE(Machine(rules_for("")).decompositions(at_row).empty());
  EXPECT_EQ(Machine(rules_for("", user)).decompositions(at_row).size(), 1u);
}

TEST(PullbackUserRules, ReplaceAndRemoveChangeTheTrace) {
  const auto user = load_text("replace-remove", "meta M : R, N : R\n"
                                                "replace 2: <M, N>.1 --> M\n"
                                                "remove N1\n");
  const Rules rules = rules_for("", user);
  ASSERT_EQ(rules.book->size(), paper_rules()->size() - 1);
  const auto two = rules.book->position("2");
  ASSERT_TRUE(two);
  EXPECT_EQ(*two, *paper_rules()->position("2")); // in the paper's place, of kind user
  EXPECT_EQ(rules.book->info(*two).kind, RuleKind::user);
  const Term first = parse_closed("<1, 2>.1");
  EXPECT_EQ(rule_sequence(steps(first, rules)), std::vector<std::string>{"2"});
  const Term second = parse_closed("<1, 2>.2"); // the replacing rule takes only .1
  EXPECT_EQ(rule_sequence(steps(second, rules_for(""))), std::vector<std::string>{"2"});
  EXPECT_TRUE(steps(second, rules).empty());
  const Term sum = parse_closed("1 + 2"); // N1 removed: stuck
  EXPECT_EQ(rule_sequence(steps(sum, rules_for(""))), std::vector<std::string>{"N1"});
  EXPECT_TRUE(steps(sum, rules).empty());
}

TEST(PullbackUserRules, ReplacingAStarCallsANormalisationOnAMetavariable) {
  const auto user =
      load_text("anf", "meta P : R, W : Omega R\n"
                       "replace A*: (Omega \\y:R. P) @ W --> (Omega \\y:R. ANF(P)) @ W\n");
  const Term query = parse_closed("((Omega \\y:R. sin(mult(<y, y>))) @ Omega[1]) 2");
  const std::vector<Step> paper = steps(query, rules_for(""));
  const std::vector<Step> user_run = steps(query, rules_for("", user));
  EXPECT_EQ(rule_sequence(user_run), rule_sequence(paper));
  ASSERT_FALSE(user_run.empty());
  EXPECT_EQ(user_run.front().rule, "A*");
  EXPECT_EQ(print(user_run.back().result), print(paper.back().result));
  // at another type the replaced A* does not match: the body stays un-normalised (stuck)
  const Term pair_query = parse_closed("((Omega \\y:R * R. sin(mult(y))) @ Omega[1]) [2, 3]");
  EXPECT_TRUE(steps(pair_query, rules_for("", user)).empty());
}

TEST(PullbackUserRules, ErrorsAreLocated) {
  try {
    load_text("unknown", "meta M : R\nreplace 55: M + M --> M\n");
    FAIL() << "no error";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::parse);
    ASSERT_TRUE(e.diagnostic().pos);
    EXPECT_EQ(e.diagnostic().pos->line, 2);
    EXPECT_EQ(e.diagnostic().pos->column, 9);
    EXPECT_NE(e.diagnostic().message.find("no rule '55'"), std::string::npos);
    EXPECT_NE(e.diagnostic().message.find("nearest: 5"), std::string::npos)
        << e.diagnostic().message;
  }
  const auto message = [](const std::string& text) {
    try {
      load_text("bad", text);
    } catch (const AdsemError& e) {
      return e.diagnostic().render();
    }
    return std::string("no error");
  };
  EXPECT_NE(message("remove 21\n").find("no rule '21'"), std::string::npos);
  EXPECT_NE(message("meta P : R, W : Omega R\nanf: (Omega \\y:R. P) @ W --> W\n")
                .find("A-normalisation (A*, a transformation"),
            std::string::npos);
  EXPECT_NE(message("meta M : R, N : R\nc: M + N --> N + M priority 2\n").find("S_bp"),
            std::string::npos);
  EXPECT_NE(message("meta M : R\nN1: M + M --> M\n").find("write 'replace N1"), std::string::npos);
  EXPECT_NE(message("meta M : R\nreplace 9: M + M --> M\n").find("row 9 rewrites"),
            std::string::npos);
}

TEST(PullbackUserRules, WithoutUserRulesTheBookIsThePapers) {
  EXPECT_EQ(rules_for("", nullptr).book, paper_rules());
  const auto user = load(example("campaign-rule-5-only.rules"));
  EXPECT_EQ(rules_for("", user).book, rules_for("", user).book); // built once
  EXPECT_FALSE(rules_for("", user).book->position("5+"));
  // under the mutant that already removed 5+, the remove is skipped
  EXPECT_FALSE(rules_for("paper-literal-rule-5-only", user).book->position("5+"));
}

reports::CampaignResult campaign(const std::string& file, const std::vector<std::string>& props,
                                 int trials, props::Overrides overrides = {}) {
  props::CampaignOptions o;
  o.calculi = {"pullback"};
  o.properties = props;
  o.trials = trials;
  o.seed = 7;
  o.overrides = std::move(overrides);
  o.user_rules = load(example(file));
  return props::run_campaign(registry(), o);
}

const reports::PropertySummary& summary(const reports::CampaignResult& r, const std::string& name) {
  const auto it = std::ranges::find_if(r.properties, [&](const auto& p) { return p.name == name; });
  if (it == r.properties.end()) throw std::logic_error("no property " + name);
  return *it;
}

// (a) a sound rule that loops with itself at the sums of dual-map bodies: strong-normalisation
// fails (a small fuel keeps the shrinking of the looping trials short).
TEST(PullbackUserRules, TheCampaignFailsARuleThatLoops) {
  const auto loops = campaign("campaign-loops.rules", {"pullback/strong-normalisation"}, 30,
                              {{"fuel", "2000"}, {"rules.targeted-share", "0.5"}});
  EXPECT_GT(summary(loops, "pullback/strong-normalisation").failed, 0);
}

// (b) a harmless rule: every property that takes targeted instances passes, and the rule fired.
TEST(PullbackUserRules, TheCampaignPassesAHarmlessRuleThatFired) {
  const std::vector<std::string> checked = {"pullback/soundness-of-steps",
                                            "pullback/subject-reduction",
                                            "pullback/strong-normalisation",
                                            "pullback/unique-decomposition",
                                            "pullback/adequacy",
                                            "pullback/cost-reverse-mode"};
  const auto harmless = campaign("campaign-harmless.rules", checked, 40);
  long fired = 0;
  for (const std::string& p : checked) {
    EXPECT_EQ(summary(harmless, p).failed, 0) << p;
    const auto& counts = summary(harmless, p).rules_fired;
    if (const auto it = counts.find("pair-eta"); it != counts.end()) fired += it->second;
  }
  EXPECT_GT(fired, 0);
}

// (c) the rule set as printed (rule 5 without 5+): cost-reverse-mode fails.
TEST(PullbackUserRules, TheCampaignFailsTheRuleSetAsPrinted) {
  const auto printed = campaign("campaign-rule-5-only.rules", {"pullback/cost-reverse-mode"}, 30);
  EXPECT_GT(summary(printed, "pullback/cost-reverse-mode").failed, 0);
}

} // namespace
} // namespace adsem::pullback::user_rules_test
