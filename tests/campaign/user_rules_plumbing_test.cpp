// `--rules FILE` through the calculus-independent layers, on a fake calculus registered only
// here: its adapter compiles any rule file (every added or replacing rule "fires" under its
// name), and its one property records a firing of "my-rule" whenever a rule file is joined, and
// fails when the file has a rule named "break-it". Replay tokens and reports carry the file's
// name and hash; replay refuses a missing or changed file; a user rule that never fired is a
// health failure; rule coverage lists the user's rules; check-rule skips removals.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>

#include "properties/core/campaign.hpp"
#include "properties/core/replay.hpp"
#include "properties/core/rule_check.hpp"
#include "properties/core/user_rules.hpp"
#include "support/cli_run.hpp"
#include "support/read_text.hpp"
#include "support/scratch.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::user_rules_plumbing_test {
namespace {

class FakeCompiledFile : public props::CompiledRuleFile {
public:
  explicit FakeCompiledFile(std::vector<std::string> names) : names_(std::move(names)) {}
  std::vector<std::string> fired_rule_names() const override { return names_; }

private:
  std::vector<std::string> names_;
};

class FakeRule : public rules::CompiledRule {};

// `joins`: whether the adapter overrides compile_file (the other is a calculus whose rule files
// are check-rule's only, as every calculus was before its rule book learnt user rules).
class FakeAdapter : public rules::RuleAdapter {
public:
  explicit FakeAdapter(bool joins) : joins_(joins) {}
  std::shared_ptr<const rules::CompiledRule> compile(const rules::RuleDecl&) const override {
    return std::make_shared<FakeRule>();
  }
  std::vector<rules::RuleCheckDef> checks() const override {
    return {{"holds", "soundness", "always holds", "none"}};
  }
  props::TrialResult trial(const rules::CompiledRule&, const std::string&,
                           const props::PropertyContext&) const override {
    const int n = *rc::gen::inRange(0, 10);
    return props::TrialResult::pass().on(std::to_string(n), "int", n);
  }
  std::vector<std::pair<std::string, std::string>>
  metavariables(const rules::CompiledRule&) const override {
    return {};
  }
  std::vector<rules::ZeroVariant> zero_variants(const rules::CompiledRule&) const override {
    return {};
  }
  std::shared_ptr<const props::CompiledRuleFile>
  compile_file(const rules::RuleFile& file) const override {
    if (!joins_) return RuleAdapter::compile_file(file);
    std::vector<std::string> names;
    for (const rules::RuleDecl& rule : file.rules)
      if (rule.action != rules::RuleDecl::Action::remove) names.push_back(rule.name);
    return std::make_shared<FakeCompiledFile>(std::move(names));
  }

private:
  bool joins_;
};

bool has_rule(const props::UserRules& rules, const std::string& name) {
  return std::ranges::any_of(rules.parsed.rules,
                             [&](const rules::RuleDecl& r) { return r.name == name; });
}

props::CalculusEntry fake_calculus(const std::string& id, bool joins) {
  props::CalculusEntry entry;
  entry.id = id;
  entry.paper = "none (--rules self-test)";
  entry.rules = {"paper-rule"};
  entry.rule_adapter = std::make_shared<FakeAdapter>(joins);
  entry.properties.push_back(props::PropertyDef{
      id, id + "/fires", "soundness", "records my-rule under a rule file; fails on break-it", "",
      [](const props::PropertyContext& context) {
        const int n = *rc::gen::inRange(0, 100);
        if (context.rule_counter) {
          context.rule_counter->add("paper-rule");
          if (context.user_rules) context.rule_counter->add("my-rule");
        }
        const bool broken = context.user_rules && has_rule(*context.user_rules, "break-it");
        auto result = broken && n >= 50 ? props::TrialResult::fail("n >= 50 under break-it")
                                        : props::TrialResult::pass();
        return result.on(std::to_string(n), "int", n);
      },
      100});
  return entry;
}

props::Registry fake_registry() {
  props::Registry registry;
  registry.add(fake_calculus("fake", true));
  registry.add(fake_calculus("stiff", false));
  return registry;
}

std::string rule_file(const std::filesystem::path& dir, const std::string& name,
                      const std::string& text) {
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

props::CampaignOptions fake_options(std::shared_ptr<const props::UserRules> rules) {
  props::CampaignOptions options;
  options.calculi = {"fake"};
  options.trials = 60;
  options.seed = 3;
  options.user_rules = std::move(rules);
  return options;
}

class UserRulesPlumbing : public ::testing::Test {
protected:
  const props::Registry registry = fake_registry();
  const testing::Scratch dir = testing::fresh_dir("user-rules");
  const std::string fires = rule_file(dir, "fires.rules", "meta M : real\nmy-rule: M --> M\n");
  const std::string breaks =
      rule_file(dir, "breaks.rules", "meta M : real\nmy-rule: M --> M\nbreak-it: M --> M\n");
  const std::string unfired =
      rule_file(dir, "unfired.rules", "meta M : real\nmy-rule: M --> M\nunfired-rule: M --> M\n");
  std::shared_ptr<const props::UserRules> load(const std::string& path) const {
    return props::load_user_rules(*registry.find("fake"), path);
  }
};

TEST_F(UserRulesPlumbing, ATokenCarriesTheRuleFileAndRoundTrips) {
  props::ReplayToken token;
  token.calculus = "fake";
  token.property = "fake/fires";
  token.seed = 7;
  token.max_size = 100;
  const std::string without = props::encode_replay_token(token);
  // Without rules the token is what it always was: no "rules" field.
  EXPECT_EQ(props::decode_replay_token(without).rules, props::RulesRef{});
  const std::string body = without.substr(7, without.rfind('.') - 7);
  EXPECT_FALSE(nlohmann::json::parse(props::base64url_decode(body)).contains("rules"));

  token.rules = {"my rules.rules", "0123456789abcdef"};
  const std::string with = props::encode_replay_token(token);
  EXPECT_NE(with, without);
  EXPECT_EQ(props::decode_replay_token(with).rules, token.rules);
  // damaged in transit: refused like any token
  std::string damaged = with;
  damaged[20] = damaged[20] == 'A' ? 'B' : 'A';
  EXPECT_THROW(props::decode_replay_token(damaged), AdsemError);
}

TEST_F(UserRulesPlumbing, RecordsAndReplayCommandsNameTheRuleFile) {
  const auto rules = load(breaks);
  const auto result = props::run_campaign(registry, fake_options(rules));
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const auto& record = result.counterexamples.front();
  EXPECT_EQ(record.rules_file, breaks);
  EXPECT_EQ(record.rules_hash, rules->hash);
  EXPECT_TRUE(record.replay_command.ends_with(" --rules '" + breaks + "'"))
      << record.replay_command;
  const auto token = props::decode_replay_token(record.replay_token);
  EXPECT_EQ(token.rules, (props::RulesRef{breaks, rules->hash}));
  ASSERT_TRUE(result.rules);
  EXPECT_EQ(result.rules->hash, rules->hash);
  EXPECT_EQ(reports::campaign_from_json(reports::to_json(result)).rules, result.rules);
  EXPECT_EQ(reports::record_from_json(reports::to_json(record)).rules_hash, rules->hash);
}

TEST_F(UserRulesPlumbing, ReplayNeedsTheSameRuleFile) {
  const auto rules = load(breaks);
  const auto result = props::run_campaign(registry, fake_options(rules));
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const auto token = props::decode_replay_token(result.counterexamples[0].replay_token);

  EXPECT_TRUE(props::replay(registry, token, "adsem", rules).reproduced);
  try {
    props::replay(registry, token);
    ADD_FAILURE() << "replayed without --rules";
  } catch (const AdsemError& e) {
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::usage);
    EXPECT_NE(e.diagnostic().message.find("give --rules FILE"), std::string::npos);
  }
  const auto other = load(fires);
  try {
    props::replay(registry, token, "adsem", other);
    ADD_FAILURE() << "replayed with another rule file";
  } catch (const AdsemError& e) {
    const std::string& message = e.diagnostic().message;
    EXPECT_EQ(e.diagnostic().kind, ErrorKind::usage);
    EXPECT_NE(message.find(rules->hash), std::string::npos) << message;
    EXPECT_NE(message.find(other->hash), std::string::npos) << message;
    EXPECT_NE(message.find(fires), std::string::npos) << message;
  }
  // a token recorded without rules refuses them
  props::ReplayToken plain = token;
  plain.rules = {};
  EXPECT_THROW(props::replay(registry, plain, "adsem", rules), AdsemError);
}

TEST_F(UserRulesPlumbing, CoverageListsTheUserRulesAndOneThatNeverFiredFailsTheCampaign) {
  const auto fired = props::run_campaign(registry, fake_options(load(fires)));
  EXPECT_TRUE(fired.all_passed());
  EXPECT_GT(fired.rule_coverage.at("fake").at("my-rule"), 0);
  EXPECT_GT(fired.rule_coverage.at("fake").at("paper-rule"), 0);
  EXPECT_TRUE(reports::is_user_rule(fired, "fake", "my-rule"));
  EXPECT_FALSE(reports::is_user_rule(fired, "fake", "paper-rule"));
  EXPECT_TRUE(reports::user_rule_failures(fired).empty());

  const auto unfired_result = props::run_campaign(registry, fake_options(load(unfired)));
  EXPECT_EQ(unfired_result.rule_coverage.at("fake").at("unfired-rule"), 0);
  EXPECT_TRUE(unfired_result.counterexamples.empty());
  EXPECT_FALSE(unfired_result.all_passed());
  const auto failures = reports::user_rule_failures(unfired_result);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0], "your rule 'unfired-rule' was not tested: it never fired in 60 trials "
                         "of fake's properties");
  // Derived from the counts: a report read back judges the same.
  EXPECT_FALSE(reports::campaign_from_json(reports::to_json(unfired_result)).all_passed());
}

TEST_F(UserRulesPlumbing, ARuleFileOfOneCalculusRefusesAnothersProperties) {
  auto options = fake_options(load(fires));
  options.calculi = {"stiff"};
  EXPECT_THROW(props::run_campaign(registry, options), AdsemError);
}

TEST_F(UserRulesPlumbing, CampaignCliShowsTheRuleFileAndFailsOnAnUnfiredRule) {
  const auto report = dir / "report";
  const auto run =
      testing::run_cli(registry, {"campaign", "fake", "--rules", unfired, "--trials", "60",
                                  "--seed", "3", "--no-config", "--no-isolate", "--report",
                                  report.string(), "--format", "json,md,html,junit"});
  EXPECT_EQ(run.code, 1) << run.out << run.err;
  const auto hash = load(unfired)->hash;
  EXPECT_NE(run.out.find("rules: " + unfired + " (" + hash + ")"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("health failure: your rule 'unfired-rule' was not tested: it never "
                         "fired in 60 trials of fake's properties"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("your rule 'my-rule' fired"), std::string::npos) << run.out;

  const auto summary = nlohmann::json::parse(testing::read_text(report / "summary.json"));
  EXPECT_EQ(summary.at("rules").at("file"), unfired);
  EXPECT_EQ(summary.at("rules").at("hash"), hash);
  EXPECT_EQ(summary.at("all_passed"), false);
  std::ifstream lines(report / "results.jsonl");
  std::string first;
  std::getline(lines, first);
  EXPECT_EQ(nlohmann::json::parse(first).at("rules").at("hash"), hash);
  const std::string md = testing::read_text(report / "report.md");
  EXPECT_NE(md.find("`my-rule` (your rule)"), std::string::npos);
  EXPECT_NE(md.find("health failure"), std::string::npos);
  EXPECT_NE(testing::read_text(report / "report.html").find(hash), std::string::npos);
  EXPECT_NE(testing::read_text(report / "junit.xml").find("unfired-rule"), std::string::npos);

  const auto fine =
      testing::run_cli(registry, {"campaign", "fake", "--rules", fires, "--trials", "60", "--seed",
                                  "3", "--no-config", "--no-isolate"});
  EXPECT_EQ(fine.code, 0) << fine.out << fine.err;
}

TEST_F(UserRulesPlumbing, ReplayCliRequiresTheSameRuleFile) {
  const auto result = props::run_campaign(registry, fake_options(load(breaks)));
  ASSERT_EQ(result.counterexamples.size(), 1u);
  const std::string token = result.counterexamples[0].replay_token;

  const auto same = testing::run_cli(registry, {"replay", token, "--rules", breaks});
  EXPECT_EQ(same.code, 1) << same.out << same.err; // reproduced
  const auto missing = testing::run_cli(registry, {"replay", token});
  EXPECT_EQ(missing.code, 2) << missing.err;
  EXPECT_NE(missing.err.find("give --rules FILE"), std::string::npos) << missing.err;
  const auto other = testing::run_cli(registry, {"replay", token, "--rules", fires});
  EXPECT_EQ(other.code, 2) << other.err;
  EXPECT_NE(other.err.find(load(fires)->hash), std::string::npos) << other.err;
  EXPECT_NE(other.err.find(load(breaks)->hash), std::string::npos) << other.err;
}

TEST_F(UserRulesPlumbing, CliUsageErrors) {
  const auto all = testing::run_cli(
      registry, {"campaign", "all", "--rules", fires, "--trials", "5", "--no-config"});
  EXPECT_EQ(all.code, 2) << all.err;
  EXPECT_NE(all.err.find("name exactly one calculus"), std::string::npos) << all.err;
  const auto two = testing::run_cli(
      registry, {"campaign", "fake", "stiff", "--rules", fires, "--trials", "5", "--no-config"});
  EXPECT_EQ(two.code, 2) << two.err;
  const auto none = testing::run_cli(registry, {"mutants", "--rules", fires});
  EXPECT_EQ(none.code, 2) << none.err;

  // A calculus whose adapter cannot yet join rule files: a usage error, never an internal one.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"campaign", "stiff", "--rules", fires, "--trials", "5",
                                 "--no-config"},
        std::vector<std::string>{"throughput", "stiff", "--rules", fires, "-n", "5"}}) {
    const auto stiff = testing::run_cli(registry, args);
    EXPECT_EQ(stiff.code, 2) << stiff.err;
    EXPECT_NE(stiff.err.find("usage error"), std::string::npos) << stiff.err;
    EXPECT_EQ(stiff.err.find("internal"), std::string::npos) << stiff.err;
    EXPECT_NE(stiff.err.find(fires), std::string::npos) << stiff.err;
  }

  const auto missing =
      testing::run_cli(registry, {"campaign", "fake", "--rules", (dir / "no-such.rules").string(),
                                  "--trials", "5", "--no-config"});
  EXPECT_EQ(missing.code, 2) << missing.err;
  EXPECT_NE(missing.err.find("no-such.rules"), std::string::npos) << missing.err;

  const auto bad =
      testing::run_cli(registry, {"campaign", "fake", "--rules",
                                  rule_file(dir, "bad.rules", "meta M : real\nr M --> M\n"),
                                  "--trials", "5", "--no-config"});
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("2:"), std::string::npos) << bad.err; // located
}

TEST_F(UserRulesPlumbing, CheckRuleChecksReplacementsAndSkipsRemovals) {
  const std::string mixed =
      rule_file(dir, "mixed.rules", "meta M : real\nreplace paper-rule: M --> M\nremove other\n");
  const auto run =
      testing::run_cli(registry, {"check-rule", "fake", mixed, "-n", "20", "--jobs", "1"});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("PASS replace paper-rule"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("remove other: not checked in isolation (a removal has no rewrite); run "
                         "adsem campaign fake --rules " +
                         mixed),
            std::string::npos)
      << run.out;

  const std::string removes = rule_file(dir, "removes.rules", "remove paper-rule\n");
  const auto only = testing::run_cli(registry, {"check-rule", "fake", removes, "--json"});
  EXPECT_EQ(only.code, 0) << only.out << only.err;
  const auto j = nlohmann::json::parse(only.out);
  ASSERT_EQ(j.at("rules").size(), 1u);
  EXPECT_EQ(j.at("rules")[0].at("name"), "remove paper-rule");
  EXPECT_NE(j.at("rules")[0].at("not_checked").get<std::string>().find("not checked in isolation"),
            std::string::npos);
}

} // namespace
} // namespace adsem::user_rules_plumbing_test
