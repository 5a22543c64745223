// Replay tokens carry a checksum: a token damaged in transit (one character changed, dropped,
// inserted, or characters appended) is a usage error (exit 2), never a replay of another input
// that then "no longer fails" (exit 0, read as fixed). Tokens of the first format ("adsem1.",
// no checksum) still replay, but only exactly as adsem wrote them.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "campaign/toy_calculus.hpp"
#include "properties/core/campaign.hpp"
#include "properties/core/replay_token.hpp"
#include "support/cli_run.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::replay_token_integrity_test {
namespace {

constexpr std::string_view alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";

// The token of a real counterexample: toy/below-ten fails on 10.
const std::string& failing_token() {
  static const std::string token = [] {
    const auto result = props::run_campaign(testing::toy_registry(),
                                            testing::toy_options({"toy/below-ten"}, 200, 5));
    return result.counterexamples.at(0).replay_token;
  }();
  return token;
}

// The same counterexample as a token of the first format: "adsem1." + base64url(JSON).
std::string legacy_token(const std::string& token) {
  const std::size_t start = std::string("adsem2.").size();
  const std::string json = props::base64url_decode(token.substr(start, token.rfind('.') - start));
  return "adsem1." + props::base64url_encode(nlohmann::json::parse(json).dump());
}

bool rejected_as_usage_error(const std::string& text) {
  try {
    (void)props::decode_replay_token(text);
    return false;
  } catch (const AdsemError& e) {
    return e.diagnostic().kind == ErrorKind::usage;
  }
}

int replay_exit_code(const std::string& text) {
  return testing::run_cli(testing::toy_registry(), {"replay", text}).code;
}

TEST(ReplayTokenIntegrity, NewTokensHaveTheCheckedPrefixAndReplay) {
  const std::string& token = failing_token();
  ASSERT_TRUE(token.starts_with("adsem2.")) << token;
  EXPECT_EQ(props::decode_replay_token(token).property, "toy/below-ten");
  EXPECT_EQ(replay_exit_code(token), 1); // still fails
}

TEST(ReplayTokenIntegrity, EveryOneCharacterEditIsRefused) {
  const std::string& token = failing_token();
  int edits = 0;
  std::vector<std::string> accepted;
  for (std::size_t i = 0; i <= token.size(); ++i) {
    std::vector<std::string> variants;
    if (i < token.size()) {
      variants.push_back(std::string(token).erase(i, 1));
      for (const char c : {'A', 'g', '0', '_', '.'})
        if (token[i] != c) variants.push_back(std::string(token).replace(i, 1, 1, c));
    }
    variants.push_back(std::string(token).insert(i, 1, alphabet[i % alphabet.size()]));
    for (const std::string& edited : variants) {
      ++edits;
      if (edited != token && !rejected_as_usage_error(edited)) accepted.push_back(edited);
    }
  }
  EXPECT_GT(edits, 1000);
  EXPECT_TRUE(accepted.empty()) << accepted.size() << " damaged tokens accepted, e.g. "
                                << accepted.front();
  // Through the CLI: exit 2, not "no longer fails" (0).
  for (const std::size_t i : {std::size_t{0}, std::size_t{10}, token.size() / 2, token.size() - 1})
    EXPECT_EQ(replay_exit_code(std::string(token).replace(i, 1, 1, token[i] == 'B' ? 'C' : 'B')), 2)
        << i;
}

TEST(ReplayTokenIntegrity, AppendedCharactersAreRefused) {
  const std::string& token = failing_token();
  for (const std::string tail : {"A", "AA", "AAA", "x", "0", ".", " "})
    EXPECT_EQ(replay_exit_code(token + tail), 2) << tail;
}

TEST(ReplayTokenIntegrity, FirstFormatTokensStillReplayButNotWithAppendedCharacters) {
  const std::string old = legacy_token(failing_token());
  const auto decoded = props::decode_replay_token(old);
  EXPECT_EQ(decoded.property, "toy/below-ten");
  EXPECT_EQ(replay_exit_code(old), 1);
  // base64 leaves spare bits: some of these used to decode to the very same token and replay.
  for (const std::string tail : {"A", "AA", "AAA", "Q", "x", "-", "0"}) {
    EXPECT_TRUE(rejected_as_usage_error(old + tail)) << tail;
    EXPECT_EQ(replay_exit_code(old + tail), 2) << tail;
  }
}

TEST(ReplayTokenIntegrity, ATokenWithAnOptionKeyThisAdsemDoesNotReadIsRefused) {
  auto token = props::decode_replay_token(failing_token());
  token.overrides = {{"fuel", "10"}};
  EXPECT_EQ(props::decode_replay_token(props::encode_replay_token(token)).overrides,
            token.overrides);
  token.overrides = {{"tolerance.derivitive.rtol", "1e-30"}};
  EXPECT_TRUE(rejected_as_usage_error(props::encode_replay_token(token)));
}

TEST(ReplayTokenIntegrity, ALongNonTokenArgumentIsAUsageError) {
  const auto run = testing::run_cli(testing::toy_registry(), {"replay", std::string(300, 'x')});
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_EQ(run.err.find("internal error"), std::string::npos) << run.err;
  EXPECT_EQ(replay_exit_code("adsem3.abc"), 2); // an unknown token format
}

} // namespace
} // namespace adsem::replay_token_integrity_test
