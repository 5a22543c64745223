#pragma once
// The known name nearest a mistyped one, for "did you mean" hints.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace adsem::cli {

// Edits (insert, delete, substitute, swap two neighbours) that turn a into b.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate fewest edits away from `typed`, if it is near enough to be a typo: at most two
// edits, and fewer than half of the typed name's length.
std::optional<std::string> nearest_name(std::string_view typed,
                                        const std::vector<std::string>& candidates);

} // namespace adsem::cli
