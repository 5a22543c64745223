#pragma once
// The known names nearest a mistyped one, for "nearest: ..." hints in error messages.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace adsem::props {

// Edits (insert, delete, substitute) that turn a into b.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The `count` candidates fewest edits from `typed`, nearest first (ties in the candidates' order).
std::vector<std::string> nearest_names(std::string_view typed, std::vector<std::string> candidates,
                                       std::size_t count = 3);

} // namespace adsem::props
