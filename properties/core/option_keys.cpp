#include "properties/core/option_keys.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "properties/core/nearest_names.hpp"
#include "semantics/core/tolerance.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::props {
namespace {

// Options read through PropertyContext::option_int / option_real by the calculi's properties.
constexpr std::string_view named_options[] = {
    "complexity.ratio",              // linear-negation complexity property
    "cost.factor",                   // simple-diff cost bound
    "cross.all-mechanisms",          // cross: every mechanism of each front end
    "cross.strict-pullback-domains", // cross: pullback domain errors fail
    "fuel",                          // every evaluator's step budget
    "literal-fuel",                  // simple-diff paper-literal rd
    "max-depth",                     // simple-diff evaluator depth
    "rules.targeted-share",          // --rules: share of trials from the targeted generator
};

std::vector<std::string> build_keys() {
  std::vector<std::string> keys(std::begin(named_options), std::end(named_options));
  for (const CheckKind kind : all_check_kinds)
    for (const char* bound : {"rtol", "atol"})
      keys.push_back(fmt::format("tolerance.{}.{}", to_string(kind), bound));
  std::ranges::sort(keys);
  return keys;
}

} // namespace

const std::vector<std::string>& known_option_keys() {
  static const std::vector<std::string> keys = build_keys();
  return keys;
}

bool is_known_option_key(std::string_view key) {
  return std::ranges::binary_search(known_option_keys(), key);
}

std::string nearest_option_key(std::string_view key) {
  const auto& keys = known_option_keys();
  return *std::ranges::min_element(
      keys, {}, [&](const std::string& known) { return edit_distance(key, known); });
}

std::string unknown_option_key_message(std::string_view key) {
  if (is_known_option_key(key)) return "";
  return fmt::format("unknown option key '{}' (did you mean '{}'? known keys: {})", key,
                     nearest_option_key(key), fmt::join(known_option_keys(), ", "));
}

void check_option_keys(const Overrides& overrides, std::string_view where) {
  for (const auto& [key, value] : overrides)
    if (const std::string message = unknown_option_key_message(key); !message.empty())
      throw AdsemError(ErrorKind::usage, fmt::format("{} {}={}: {}", where, key, value, message));
}

} // namespace adsem::props
