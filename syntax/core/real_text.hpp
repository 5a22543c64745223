#pragma once
// The text of a finite real that reads back as exactly the same double, as short as possible
// (std::to_chars' shortest round trip): what every printer writes for a numeral. A real that is
// not finite has no literal in any calculus; the per-term commands report it instead of printing
// it (properties/core/result_checks.hpp).
#include <charconv>
#include <string>

namespace adsem {

inline std::string shortest_real_text(double x) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, x).ptr;
  return std::string(buffer, end);
}

} // namespace adsem
