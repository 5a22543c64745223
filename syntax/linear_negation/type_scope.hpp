#pragma once
// The type checker's scope (typecheck.cpp): per name, its exponential type in Γ and whether it
// is a linear variable in scope, read and written as the checker's std::map Γ and set of linear
// names were. A name's entry stays once made (unbound: no type, not linear), so binding and
// unbinding allocate nothing; entries are found through an open-addressing table of their
// indices, hashed in line (the names are short, and a reduced term has many).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

// Names of one length mostly differ in the number they end in (x_12, x_13): compared from the
// end, in line (no call to memcmp for a few bytes).
inline bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = a.size(); i > 0; --i)
    if (a[i - 1] != b[i - 1]) return false;
  return true;
}

class Scope {
public:
  struct Entry {
    std::string_view name; // views a binder of the checked term or a name of the given Γ
    Type type;             // Γ(name), when bound
    bool bound = false;
    bool linear = false; // a linear variable in scope
  };

  const Entry* find(std::string_view name) const {
    const std::size_t i = index_of(name);
    return i == npos ? nullptr : &entries_[i];
  }
  // The entry of `name`, made (unbound) if there is none; valid until the next new name.
  Entry& slot(std::string_view name) {
    const std::size_t i = index_of(name);
    if (i != npos) return entries_[i];
    entries_.push_back(Entry{name, nullptr, false, false});
    if (2 * entries_.size() > table_.size()) { // at most half full: short probe runs
      table_.assign(table_.empty() ? 64 : 2 * table_.size(), 0);
      for (std::size_t k = 0; k < entries_.size(); ++k)
        place(k);
    } else {
      place(entries_.size() - 1);
    }
    return entries_.back();
  }

private:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  static std::size_t hash(std::string_view name) { // FNV-1a
    std::uint64_t h = 14695981039346656037ULL;
    for (const char c : name)
      h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  void place(std::size_t k) {
    const std::size_t mask = table_.size() - 1;
    std::size_t at = hash(entries_[k].name) & mask;
    while (table_[at] != 0)
      at = (at + 1) & mask;
    table_[at] = static_cast<std::uint32_t>(k + 1);
  }
  std::size_t index_of(std::string_view name) const {
    if (table_.empty()) return npos;
    const std::size_t mask = table_.size() - 1;
    for (std::size_t at = hash(name) & mask; table_[at] != 0; at = (at + 1) & mask)
      if (same_name(entries_[table_[at] - 1].name, name)) return table_[at] - 1;
    return npos;
  }

  std::vector<Entry> entries_;
  std::vector<std::uint32_t> table_; // entry index + 1 by hash, linear probing; 0: empty
};

} // namespace adsem::linear_negation
