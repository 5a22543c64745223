#include "properties/core/replay_token.hpp"

#include <array>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "properties/core/fnv1a.hpp"
#include "properties/core/option_keys.hpp"
#include "properties/core/user_rules.hpp"
#include "reports/json_integer.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

constexpr std::string_view token_prefix = "adsem2.";        // with a checksum
constexpr std::string_view legacy_token_prefix = "adsem1."; // read only, no checksum

std::string checksum_of(std::string_view body) {
  return fmt::format("{:016x}", fnv1a(body));
}

[[noreturn]] void damaged(std::string_view why) {
  throw AdsemError(ErrorKind::usage, fmt::format("replay token is damaged: {}; copy the whole "
                                                 "token again from the report",
                                                 why));
}

// The base64url payload of a token, after its checksum (new format) is verified.
std::string payload_of(const std::string& text) {
  if (text.starts_with(legacy_token_prefix)) return text.substr(legacy_token_prefix.size());
  if (!text.starts_with(token_prefix))
    throw AdsemError(ErrorKind::usage, fmt::format("not an adsem replay token (expected it to "
                                                   "start with '{}')",
                                                   token_prefix));
  const std::size_t dot = text.rfind('.');
  if (dot < token_prefix.size()) damaged("its checksum is missing");
  if (text.compare(dot + 1, std::string::npos, checksum_of(std::string_view(text).substr(0, dot))))
    damaged("its checksum does not match");
  return text.substr(token_prefix.size(), dot - token_prefix.size());
}

// An integer field of the token's JSON. nlohmann's get<T>() casts a float such as 1.9e19 to T,
// which is UB (found by fuzz_read_replay_token): only integers in T's range are accepted.
// A missing field is an error unless there is a fallback.
template <class T>
T integer_field(const nlohmann::json& j, const char* key, std::optional<T> fallback = {}) {
  if (!j.contains(key) && fallback) return *fallback;
  if (const auto v = reports::integer_in_range<T>(j.at(key))) return *v;
  throw AdsemError(ErrorKind::usage,
                   fmt::format("replay token is damaged: '{}' is not an integer in range", key));
}
constexpr std::string_view alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string hex_of(const std::vector<std::uint8_t>& bytes) {
  std::string out;
  for (const std::uint8_t b : bytes)
    out += fmt::format("{:02x}", b);
  return out;
}

std::vector<std::uint8_t> bytes_of_hex(const std::string& hex) {
  if (hex.size() % 2 != 0) throw AdsemError(ErrorKind::usage, "replay token: bad reproduce data");
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const std::string pair = hex.substr(i, 2);
    if (pair.find_first_not_of("0123456789abcdef") != std::string::npos)
      throw AdsemError(ErrorKind::usage, "replay token: bad reproduce data");
    out.push_back(static_cast<std::uint8_t>(std::stoul(pair, nullptr, 16)));
  }
  return out;
}

// RapidCheck's deserializers trust their input: a varint of more than ten bytes shifts a 64-bit
// value by 70 (UB, rapidcheck/detail/Serialization.hpp deserializeCompact) and Random reads its
// last byte without checking the end (found by fuzz_read_replay_token). So the bytes of a token,
// which a user may have mangled, are walked here first in the layout rc::detail::serialize writes
// for a Reproduce (rapidcheck/Random.hpp, detail/Results.hpp); the round-trip tests of the token
// would fail if a RapidCheck release changed that layout.
class ReproduceLayout {
public:
  explicit ReproduceLayout(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}

  void check() {
    fixed(4 * 8);                         // Random: key, four 64-bit words
    varint();                             // Random: bits
    varint();                             // Random: counter
    if (fixed(1)[0] > 64) damaged();      // Random: index into the 64 bits
    fixed(4);                             // size, 32 bits
    const std::uint64_t steps = varint(); // shrink path: count, then the steps
    for (std::uint64_t i = 0; i < steps; ++i)
      varint();
    if (at_ != bytes_.size()) damaged();
  }

private:
  [[noreturn]] static void damaged() {
    throw AdsemError(ErrorKind::usage, "replay token is damaged: bad reproduce data");
  }
  const std::uint8_t* fixed(std::size_t n) {
    if (bytes_.size() - at_ < n) damaged();
    at_ += n;
    return bytes_.data() + at_ - n;
  }
  // Seven bits per byte, low first; at most ten bytes and 64 bits.
  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = *fixed(1);
      if (shift == 63 && (b & 0x7e) != 0) damaged(); // bits past the 64th
      value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return value;
    }
    damaged();
  }
  const std::vector<std::uint8_t>& bytes_;
  std::size_t at_ = 0;
};

} // namespace

std::string base64url_encode(const std::string& bytes) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const unsigned char c : bytes) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += alphabet[(buffer >> bits) & 0x3f];
    }
  }
  if (bits > 0) out += alphabet[(buffer << (6 - bits)) & 0x3f];
  return out;
}

std::string base64url_decode(const std::string& text) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const auto pos = alphabet.find(c);
    if (pos == std::string_view::npos)
      throw AdsemError(ErrorKind::usage, fmt::format("replay token: unexpected character '{}'", c));
    buffer = (buffer << 6) | static_cast<std::uint32_t>(pos);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  return out;
}

RulesRef rules_ref(const UserRules* rules) {
  return rules ? RulesRef{rules->file, rules->hash} : RulesRef{};
}

std::string encode_replay_token(const ReplayToken& token) {
  std::vector<std::uint8_t> reproduce;
  rc::detail::serialize(token.reproduce, std::back_inserter(reproduce));
  nlohmann::json j = {{"v", ReplayToken::format_version}, {"calculus", token.calculus},
                      {"property", token.property},       {"mutant", token.mutant},
                      {"overrides", token.overrides},     {"seed", token.seed},
                      {"max_size", token.max_size},       {"reproduce", hex_of(reproduce)}};
  if (token.chunk_trials > 0) j["chunk_trials"] = token.chunk_trials; // crash/timeout records
  if (!token.rules.empty()) j["rules"] = {{"file", token.rules.file}, {"hash", token.rules.hash}};
  const std::string body = std::string(token_prefix) + base64url_encode(j.dump());
  return body + "." + checksum_of(body);
}

bool looks_like_replay_token(std::string_view text) {
  if (!text.starts_with("adsem")) return false;
  const std::size_t digits = text.find_first_not_of("0123456789", 5);
  return digits > 5 && digits != std::string_view::npos && text[digits] == '.';
}

ReplayToken decode_replay_token(const std::string& text) {
  const std::string payload = payload_of(text);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(base64url_decode(payload));
    // Only the exact text adsem writes: base64 leaves spare bits at the end, so characters
    // appended to a token of the first format (no checksum) could decode to the same input.
    if (base64url_encode(j.dump()) != payload) damaged("it is not in the form adsem writes");
    ReplayToken token;
    if (integer_field<int>(j, "v") != ReplayToken::format_version)
      throw AdsemError(ErrorKind::usage, "replay token: unsupported format version");
    token.calculus = j.at("calculus").get<std::string>();
    token.property = j.at("property").get<std::string>();
    token.mutant = j.at("mutant").get<std::string>();
    token.overrides = j.at("overrides").get<Overrides>();
    // An option this adsem no longer reads would be ignored: the replay would not be the run
    // that was recorded.
    check_option_keys(token.overrides, "replay token: override");
    token.seed = integer_field<std::uint64_t>(j, "seed");
    token.max_size = integer_field<int>(j, "max_size");
    token.chunk_trials = integer_field<int>(j, "chunk_trials", 0);
    if (j.contains("rules")) {
      token.rules = {j.at("rules").at("file").get<std::string>(),
                     j.at("rules").at("hash").get<std::string>()};
      if (token.rules.hash.size() != 16 ||
          token.rules.hash.find_first_not_of("0123456789abcdef") != std::string::npos)
        damaged("its rule file's hash is not 16 hex digits");
    }
    const auto bytes = bytes_of_hex(j.at("reproduce").get<std::string>());
    ReproduceLayout(bytes).check();
    const auto end = rc::detail::deserialize(bytes.begin(), bytes.end(), token.reproduce);
    if (end != bytes.end())
      throw AdsemError(ErrorKind::usage, "replay token: trailing reproduce data");
    return token;
  } catch (const nlohmann::json::exception& e) {
    throw AdsemError(ErrorKind::usage, fmt::format("replay token is damaged: {}", e.what()));
  } catch (const rc::detail::SerializationException& e) {
    throw AdsemError(ErrorKind::usage, fmt::format("replay token is damaged: {}", e.what()));
  }
}

} // namespace adsem::props
