#pragma once
// "Did you mean": the candidates closest to a misspelt name by edit distance (Levenshtein), for
// errors that name an unknown rule, option or property.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace adsem::props {

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// At most `count` candidates, nearest first (ties in the candidates' order).
inline std::vector<std::string> nearest_names(std::string_view name,
                                              const std::vector<std::string>& candidates,
                                              std::size_t count = 3) {
  std::vector<std::string> out = candidates;
  std::ranges::stable_sort(out, [&](const std::string& a, const std::string& b) {
    return edit_distance(name, a) < edit_distance(name, b);
  });
  if (out.size() > count) out.resize(count);
  return out;
}

} // namespace adsem::props
