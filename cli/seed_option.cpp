#include "cli/seed_option.hpp"

#include <charconv>
#include <string>

namespace adsem::cli {

std::optional<std::uint64_t> parse_seed(std::string_view text) {
  std::uint64_t seed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return seed;
}

CLI::Validator seed_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return parse_seed(text) ? "" : "expected a whole number in [0, 2^64), got '" + text + "'";
      },
      "SEED");
}

} // namespace adsem::cli
