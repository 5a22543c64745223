// Inputs that used to be accepted silently: an unknown override key (`--set`, `set = [...]` in
// adsem.toml) ran with the defaults, and a negative seed wrapped to 2^64 - 3. Both are usage
// errors now, the unknown key with the nearest known one suggested.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "cli/campaign_config.hpp"
#include "properties/core/option_keys.hpp"
#include "support/cli_run.hpp"
#include "support/scratch.hpp"
#include "syntax/core/diagnostic.hpp"
#include "toy_calculus.hpp"

namespace adsem::option_keys_test {
namespace {

testing::Scratch fresh_dir(const std::string& name) {
  return testing::fresh_dir("option-keys-" + name);
}

testing::CliRun campaign(std::vector<std::string> extra) {
  std::vector<std::string> args = {"campaign", "toy", "-p", "below-ten", "-n", "5", "--no-corpus"};
  if (std::ranges::find(extra, "--config") == extra.end()) args.push_back("--no-config");
  args.insert(args.end(), extra.begin(), extra.end());
  return testing::run_cli(testing::toy_registry(), args);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(OptionKeys, AMisspeltSetKeyIsAUsageErrorNamingTheNearestKey) {
  const auto typo = campaign({"--set", "tolerance.derivitive.rtol=1e-30"});
  EXPECT_EQ(typo.code, 2) << typo.out;
  EXPECT_TRUE(contains(typo.err, "'tolerance.derivitive.rtol'")) << typo.err;
  EXPECT_TRUE(contains(typo.err, "did you mean 'tolerance.derivative.rtol'")) << typo.err;

  const auto unknown = campaign({"--set", "nosuchkey=1"});
  EXPECT_EQ(unknown.code, 2) << unknown.out;
  EXPECT_TRUE(contains(unknown.err, "unknown option key 'nosuchkey'")) << unknown.err;

  // Known keys still run (toy/below-ten fails: exit 1).
  EXPECT_EQ(campaign({"--set", "fuel=10", "--set", "tolerance.probe.atol=1e-3"}).code, 1);
}

TEST(OptionKeys, EveryToleranceAndNamedOptionIsKnown) {
  for (const char* key : {"tolerance.exact-value.rtol", "tolerance.derivative.atol",
                          "tolerance.finite-difference.rtol", "tolerance.probe.atol", "fuel",
                          "cross.all-mechanisms", "cost.factor"})
    EXPECT_TRUE(props::is_known_option_key(key)) << key;
  EXPECT_FALSE(props::is_known_option_key("tolerance.derivative"));
  EXPECT_EQ(props::nearest_option_key("feul"), "fuel");
}

TEST(OptionKeys, APropertyReadingAnUnlistedKeyIsAProgrammingError) {
  const props::PropertyContext context{"", {{"fuel", "3"}}};
  EXPECT_EQ(context.option_int("fuel", 1), 3);
  EXPECT_THROW((void)context.option_int("unlisted-option", 1), std::logic_error);
  EXPECT_THROW((void)context.option_real("unlisted-option", 1.0), std::logic_error);
}

TEST(OptionKeys, AnUnknownKeyInTheConfigFileIsALocatedError) {
  const auto dir = fresh_dir("config");
  const auto file = dir / "adsem.toml";
  std::ofstream(file) << "[campaign]\ntime = 3\nset = [\"tolerance.derivitive.rtol=1e-30\"]\n";
  try {
    (void)cli::read_campaign_config(file, testing::toy_registry());
    FAIL() << "an unknown key in set must be an error";
  } catch (const AdsemError& e) {
    const std::string& message = e.diagnostic().message;
    EXPECT_TRUE(contains(message, "adsem.toml:3")) << message;
    EXPECT_TRUE(contains(message, "did you mean 'tolerance.derivative.rtol'")) << message;
  }
  std::ofstream(file) << "[\"toy/below-ten\"]\nset = [\"nosuchkey=1\"]\n";
  EXPECT_THROW((void)cli::read_campaign_config(file, testing::toy_registry()), AdsemError);
  // Through the CLI: exit 2.
  std::ofstream(file) << "[campaign]\nset = [\"nosuchkey=1\"]\n";
  EXPECT_EQ(campaign({"--config", file.string()}).code, 2);
}

TEST(Seed, ANegativeSeedIsRejectedOnTheCommandLine) {
  const auto run = campaign({"--seed", "-3"});
  EXPECT_EQ(run.code, 2) << run.out;
  EXPECT_FALSE(contains(run.out, "18446744073709551613"));
  EXPECT_TRUE(contains(run.err, "expected a whole number in [0, 2^64), got '-3'")) << run.err;
  for (const std::string command : {"mutants", "throughput"}) {
    const auto other = testing::run_cli(testing::toy_registry(), {command, "--seed", "-3"});
    EXPECT_EQ(other.code, 2) << command << ": " << other.out;
  }
  EXPECT_EQ(campaign({"--seed", "18446744073709551615"}).code, 1); // 2^64 - 1 is a seed
}

TEST(Seed, ANegativeSeedIsRejectedInTheConfigFile) {
  const auto dir = fresh_dir("seed");
  const auto file = dir / "adsem.toml";
  for (const char* seed : {"-3", "1.5", "18446744073709551616"}) {
    std::ofstream(file) << "[campaign]\nseed = " << seed << "\n";
    try {
      const auto config = cli::read_campaign_config(file, testing::toy_registry());
      FAIL() << "seed = " << seed << " was read as " << config.seed.value_or(0);
    } catch (const AdsemError& e) {
      EXPECT_TRUE(contains(e.diagnostic().message, "adsem.toml:2")) << e.diagnostic().message;
      EXPECT_TRUE(contains(e.diagnostic().message, "seed")) << e.diagnostic().message;
    }
  }
}

} // namespace
} // namespace adsem::option_keys_test
