#pragma once
// A campaign's JSON without what depends on the clock, so runs can be compared byte for byte.
#include <string>

#include <nlohmann/json.hpp>

namespace adsem::testing {

// Removes the elapsed, started and seconds fields and the health warning about slow trials (it
// depends on the machine's speed and load: a loaded machine gives one run the warning and not the
// other), at any depth.
inline void strip_timing(nlohmann::json& j) {
  if (j.is_object()) {
    for (const char* key : {"seconds", "elapsed_seconds", "started_at", "seconds_to_first_failure"})
      j.erase(key);
    if (j.contains("warnings")) {
      auto& w = j["warnings"];
      nlohmann::json kept = nlohmann::json::array();
      for (const auto& item : w)
        if (item.get<std::string>().find("slow trials") == std::string::npos) kept.push_back(item);
      if (kept.empty())
        j.erase("warnings"); // a run that only had the timing warning has none left
      else
        w = kept;
    }
    for (auto& [key, value] : j.items())
      strip_timing(value);
  } else if (j.is_array()) {
    for (auto& item : j)
      strip_timing(item);
  }
}

inline nlohmann::json without_timing(nlohmann::json j) {
  strip_timing(j);
  return j;
}

} // namespace adsem::testing
