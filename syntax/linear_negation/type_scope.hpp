#pragma once
// The type checker's scope (typecheck.cpp): per name, its exponential type in Γ and whether it
// is a linear variable in scope, read and written as the checker's std::map Γ and set of linear
// names were. A name's entry stays once made (unbound: no type, not linear), so binding and
// unbinding allocate nothing; a run sees few distinct names, found by a scan, and a table of
// many (a long let series) is indexed by a hash map instead.
#include <cstddef>
#include <string_view>
#include <unordered_map>
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
    if (!index_.empty() || entries_.size() > scan_limit) {
      if (index_.empty())
        for (std::size_t k = 0; k < entries_.size(); ++k)
          index_.emplace(entries_[k].name, k);
      else
        index_.emplace(name, entries_.size() - 1);
    }
    return entries_.back();
  }

private:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  static constexpr std::size_t scan_limit = 64;

  std::size_t index_of(std::string_view name) const {
    if (!index_.empty()) {
      const auto it = index_.find(name);
      return it == index_.end() ? npos : it->second;
    }
    // newest first: a variable is most often bound by a binder near it
    for (std::size_t k = entries_.size(); k > 0; --k)
      if (same_name(entries_[k - 1].name, name)) return k - 1;
    return npos;
  }

  std::vector<Entry> entries_;
  std::unordered_map<std::string_view, std::size_t> index_; // filled past scan_limit names
};

} // namespace adsem::linear_negation
