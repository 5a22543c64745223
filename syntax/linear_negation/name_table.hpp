#pragma once
// A set of names with dense ids (0, 1, … in the order first met), open-addressed over one vector
// of the names: the free table of a term (semantics/linear_negation/free_table.hpp) interns every
// name of the term in one, and a reducer's fresh-name supply (Names, ast.hpp) and binder types
// start from copies of it. A node-based set built a key string and a node per name and hashed by
// a library call: about 1.5% of a throughput run of small terms, whose reducer made one per term.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace adsem::linear_negation {

class NameTable {
public:
  // The name's id, or -1 when it is not in the table.
  int id(std::string_view name) const {
    if (slots_.empty()) return -1;
    return slots_[probe(name, hash(name))];
  }
  bool contains(std::string_view name) const { return id(name) >= 0; }
  // The name's id, the name added (with the next id) when it is new.
  int intern(std::string_view name) {
    if (2 * (names_.size() + 1) > slots_.size()) grow();
    const std::uint32_t h = hash(name);
    int& slot = slots_[probe(name, h)];
    if (slot >= 0) return slot;
    slot = static_cast<int>(names_.size());
    names_.emplace_back(name);
    hashes_.push_back(h);
    return slot;
  }
  // Room for `count` names without placing the ids again.
  void reserve(std::size_t count);
  std::size_t size() const { return names_.size(); }
  const std::string& name(int id) const { return names_[static_cast<std::size_t>(id)]; }
  // Every name, by id.
  const std::vector<std::string>& names() const { return names_; }

private:
  // FNV-1a: the names are short (x, y_12, a3), and only the probe order depends on it.
  static std::uint32_t hash(std::string_view name) {
    std::uint32_t h = 2166136261U;
    for (const char c : name)
      h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
    return h ^ (h >> 16);
  }
  // The slot of slots_ holding the name's id, or the empty slot where it belongs.
  std::size_t probe(std::string_view name, std::uint32_t h) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = h & mask;; at = (at + 1) & mask) {
      const int i = slots_[at];
      if (i < 0) return at;
      const auto id = static_cast<std::size_t>(i);
      if (hashes_[id] == h && names_[id] == name) return at;
    }
  }
  void grow(); // twice the slots (at least 16), every id placed again
  void place_all(std::size_t slots);

  // linear probing, at most half full; each name is stored once, in names_
  std::vector<int> slots_;            // an id, or -1; a power of two in size
  std::vector<std::uint32_t> hashes_; // by id
  std::vector<std::string> names_;    // by id
};

} // namespace adsem::linear_negation
