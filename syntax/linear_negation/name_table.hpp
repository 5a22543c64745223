#pragma once
// A set of names with dense ids (0, 1, … in the order first met), open-addressed over one vector
// of the names: the free table of a term (semantics/linear_negation/free_table.hpp) interns every
// name of the term in one, and a reducer's fresh-name supply (Names, ast.hpp) starts from a copy
// of it. A node-based set built a key string and a node per name and hashed by a library call:
// about 1.5% of a throughput run of small terms, whose reducer made such a set per term.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace adsem::linear_negation {

class NameTable {
public:
  // The name's id, or -1 when it is not in the table.
  int id(std::string_view name) const;
  bool contains(std::string_view name) const { return id(name) >= 0; }
  // The name's id, the name added (with the next id) when it is new.
  int intern(std::string_view name);
  // Room for `count` names without placing the ids again.
  void reserve(std::size_t count);
  std::size_t size() const { return names_.size(); }
  const std::string& name(int id) const { return names_[static_cast<std::size_t>(id)]; }
  // Every name, by id.
  const std::vector<std::string>& names() const { return names_; }

private:
  // The slot of slots_ holding the name's id, or the empty slot where it belongs.
  std::size_t probe(std::string_view name, std::uint32_t h) const;
  void place_all(std::size_t slots);

  // linear probing, at most half full; each name is stored once, in names_
  std::vector<int> slots_;            // an id, or -1; a power of two in size
  std::vector<std::uint32_t> hashes_; // by id
  std::vector<std::string> names_;    // by id
};

} // namespace adsem::linear_negation
