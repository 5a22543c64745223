// The open-addressed name set of name_table.hpp.
#include "syntax/linear_negation/name_table.hpp"

#include <algorithm>

namespace adsem::linear_negation {

namespace {
// FNV-1a: the names are short (x, y_12, a3), and only the probe order depends on it.
std::uint32_t name_hash(std::string_view name) {
  std::uint32_t h = 2166136261U;
  for (const char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
  return h ^ (h >> 16);
}
} // namespace

std::size_t NameTable::probe(std::string_view name, std::uint32_t h) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    const int i = slots_[at];
    if (i < 0) return at;
    const auto id = static_cast<std::size_t>(i);
    if (hashes_[id] == h && names_[id] == name) return at;
  }
}

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

void NameTable::reserve(std::size_t count) {
  std::size_t slots = std::max<std::size_t>(16, slots_.size());
  while (slots < 2 * count)
    slots *= 2;
  if (slots != slots_.size()) place_all(slots);
  hashes_.reserve(count);
  names_.reserve(count);
}

int NameTable::id(std::string_view name) const {
  if (slots_.empty()) return -1;
  return slots_[probe(name, name_hash(name))];
}

int NameTable::intern(std::string_view name) {
  if (2 * (names_.size() + 1) > slots_.size()) // doubled, and every id placed again
    place_all(std::max<std::size_t>(16, 2 * slots_.size()));
  const std::uint32_t h = name_hash(name);
  int& slot = slots_[probe(name, h)];
  if (slot >= 0) return slot;
  slot = static_cast<int>(names_.size());
  names_.emplace_back(name);
  hashes_.push_back(h);
  return slot;
}

} // namespace adsem::linear_negation
