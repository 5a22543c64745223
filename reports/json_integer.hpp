#pragma once
// Reading an integer from a JSON value that a user may have edited. nlohmann's get<T>() converts a
// float to an integer type with a static_cast, which is undefined behaviour out of range (found by
// fuzz_read_reports: a "seed" of -1.78e19 read as uint64_t), and wraps integers that do not fit.
#include <concepts>
#include <cstdint>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

namespace adsem::reports {

// The value if it is a JSON integer that T can hold; nullopt for anything else (floats included).
template <std::integral T> std::optional<T> integer_in_range(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (std::in_range<T>(u)) return static_cast<T>(u);
  } else if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (std::in_range<T>(i)) return static_cast<T>(i);
  }
  return std::nullopt;
}

} // namespace adsem::reports
