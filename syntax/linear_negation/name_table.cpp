// The open-addressed name set of name_table.hpp: its growth, out of line.
#include "syntax/linear_negation/name_table.hpp"

#include <algorithm>

namespace adsem::linear_negation {

void NameTable::place_all(std::size_t slots) {
  slots_.assign(slots, -1);
  const std::size_t mask = slots - 1;
  for (std::size_t id = 0; id < names_.size(); ++id) {
    std::size_t at = hashes_[id] & mask;
    while (slots_[at] >= 0)
      at = (at + 1) & mask;
    slots_[at] = static_cast<int>(id);
  }
}

void NameTable::grow() {
  place_all(std::max<std::size_t>(16, 2 * slots_.size()));
}

void NameTable::reserve(std::size_t count) {
  std::size_t slots = std::max<std::size_t>(16, slots_.size());
  while (slots < 2 * count)
    slots *= 2;
  if (slots != slots_.size()) place_all(slots);
  hashes_.reserve(count);
  names_.reserve(count);
}

} // namespace adsem::linear_negation
