#pragma once
// Whether a report, log or message holds a piece of text.
#include <string_view>

namespace adsem::testing {

inline bool has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

} // namespace adsem::testing
