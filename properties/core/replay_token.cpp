#include "properties/core/replay_token.hpp"

#include <array>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

constexpr std::string_view token_prefix = "adsem1.";

// An integer field of the token's JSON. nlohmann's get<T>() casts a float such as 1.9e19 to T,
// which is UB (found by fuzz_read_replay_token): only integers in T's range are accepted.
// A missing field is an error unless there is a fallback.
template <class T>
T integer_field(const nlohmann::json& j, const char* key, std::optional<T> fallback = {}) {
  if (!j.contains(key) && fallback) return *fallback;
  const nlohmann::json& v = j.at(key);
  if (v.is_number_unsigned() &&
      std::cmp_less_equal(v.get<std::uint64_t>(), std::numeric_limits<T>::max()))
    return static_cast<T>(v.get<std::uint64_t>());
  if (v.is_number_integer() && !v.is_number_unsigned()) {
    const std::int64_t i = v.get<std::int64_t>();
    if (std::cmp_greater_equal(i, std::numeric_limits<T>::min()) &&
        std::cmp_less_equal(i, std::numeric_limits<T>::max()))
      return static_cast<T>(i);
  }
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

std::string encode_replay_token(const ReplayToken& token) {
  std::vector<std::uint8_t> reproduce;
  rc::detail::serialize(token.reproduce, std::back_inserter(reproduce));
  nlohmann::json j = {{"v", ReplayToken::format_version}, {"calculus", token.calculus},
                      {"property", token.property},       {"mutant", token.mutant},
                      {"overrides", token.overrides},     {"seed", token.seed},
                      {"max_size", token.max_size},       {"reproduce", hex_of(reproduce)}};
  if (token.chunk_trials > 0) j["chunk_trials"] = token.chunk_trials; // crash/timeout records
  return std::string(token_prefix) + base64url_encode(j.dump());
}

ReplayToken decode_replay_token(const std::string& text) {
  if (!text.starts_with(token_prefix))
    throw AdsemError(ErrorKind::usage,
                     "not an adsem replay token (expected it to start with 'adsem1.')");
  const std::string payload = base64url_decode(text.substr(token_prefix.size()));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(payload);
    ReplayToken token;
    if (integer_field<int>(j, "v") != ReplayToken::format_version)
      throw AdsemError(ErrorKind::usage, "replay token: unsupported format version");
    token.calculus = j.at("calculus").get<std::string>();
    token.property = j.at("property").get<std::string>();
    token.mutant = j.at("mutant").get<std::string>();
    token.overrides = j.at("overrides").get<Overrides>();
    token.seed = integer_field<std::uint64_t>(j, "seed");
    token.max_size = integer_field<int>(j, "max_size");
    token.chunk_trials = integer_field<int>(j, "chunk_trials", 0);
    const auto bytes = bytes_of_hex(j.at("reproduce").get<std::string>());
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
