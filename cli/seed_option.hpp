#pragma once
// Seeds on the command line and in adsem.toml: whole numbers in [0, 2^64). CLI11's own
// conversion to an unsigned type wraps "-3" to 2^64 - 3, a seed nobody asked for.
#include <cstdint>
#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

namespace adsem::cli {

// The seed `text` spells, or nothing when it is not a whole number in [0, 2^64).
std::optional<std::uint64_t> parse_seed(std::string_view text);

// For `--seed` options: refuses what parse_seed refuses, with that range in the message.
CLI::Validator seed_validator();

} // namespace adsem::cli
