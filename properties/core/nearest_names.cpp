#include "properties/core/nearest_names.hpp"

#include <algorithm>
#include <numeric>

namespace adsem::props {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
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

std::vector<std::string> nearest_names(std::string_view typed, std::vector<std::string> candidates,
                                       std::size_t count) {
  std::ranges::stable_sort(candidates, [&](const std::string& a, const std::string& b) {
    return edit_distance(typed, a) < edit_distance(typed, b);
  });
  if (candidates.size() > count) candidates.resize(count);
  return candidates;
}

} // namespace adsem::props
