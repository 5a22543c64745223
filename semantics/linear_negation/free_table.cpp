// One free-count table per term (free_table.hpp): a walk that interns every name, counts the
// variable occurrences and checks the Barendregt convention the reducer keeps (spec §2.8).
#include "semantics/linear_negation/free_table.hpp"

#include <algorithm>
#include <array>

#include "syntax/linear_negation/nesting.hpp"

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

std::size_t FreeTable::probe(std::string_view name, std::uint32_t h) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    const int i = slots_[at];
    if (i < 0) return at;
    const auto id = static_cast<std::size_t>(i);
    if (hashes_[id] == h && names_[id] == name) return at;
  }
}

int FreeTable::intern(std::string_view name) {
  if (2 * (names_.size() + 1) > slots_.size()) { // doubled, and every id placed again
    slots_.assign(std::max<std::size_t>(16, 2 * slots_.size()), -1);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t id = 0; id < names_.size(); ++id) {
      std::size_t at = hashes_[id] & mask;
      while (slots_[at] >= 0)
        at = (at + 1) & mask;
      slots_[at] = static_cast<int>(id);
    }
  }
  const std::uint32_t h = name_hash(name);
  int& slot = slots_[probe(name, h)];
  if (slot >= 0) return slot;
  slot = static_cast<int>(names_.size());
  names_.emplace_back(name);
  hashes_.push_back(h);
  counts_.push_back(0);
  bound_.push_back(false);
  return slot;
}

int FreeTable::id(std::string_view name) const {
  if (slots_.empty()) return -1;
  return slots_[probe(name, name_hash(name))];
}

int FreeTable::count(std::string_view name) const {
  const int i = id(name);
  return i < 0 ? 0 : counts_[static_cast<std::size_t>(i)];
}

std::optional<FreeTable> FreeTable::of(const Term& t) {
  FreeTable table;
  // about one name for every two nodes: room made once, not at each doubling
  const auto room = static_cast<std::size_t>(t->size / 2 + 1);
  std::size_t slots = 16;
  while (slots < 2 * room)
    slots *= 2;
  table.slots_.assign(slots, -1);
  table.hashes_.reserve(room);
  table.names_.reserve(room);
  table.counts_.reserve(room);
  table.bound_.reserve(room);
  table.binders_.reserve(room);
  table.root_ = t.get();
  std::vector<char> in_scope;
  std::vector<char> outside; // an occurrence outside every binder of the name
  in_scope.reserve(room);
  outside.reserve(room);
  bool unique = true;
  const auto grow = [&](int id) {
    const auto need = static_cast<std::size_t>(id) + 1;
    if (in_scope.size() < need) {
      in_scope.resize(need, 0);
      outside.resize(need, 0);
    }
    return static_cast<std::size_t>(id);
  };
  const auto walk = [&](const auto& self, const Term& n) -> void {
    if (!unique) return;
    if (n->copy.unforced) {
      unique = false; // not walked: the table would force it
      return;
    }
    if (n->kind == Kind::var) {
      const std::size_t i = grow(table.intern(n->name));
      ++table.counts_[i];
      if (in_scope[i] == 0) outside[i] = 1;
      return;
    }
    const bool binds = n->kind == Kind::lam || n->kind == Kind::let || n->kind == Kind::let_pair;
    if (!binds) {
      for (const Term& k : n->kids)
        self(self, k);
      return;
    }
    if (n->kind != Kind::lam) self(self, n->bound()); // outside the binders' scope
    std::array<std::size_t, 2> ids{};
    const std::size_t count = n->kind == Kind::let_pair ? 2 : 1;
    BinderIds& met = table.binders_.emplace_back(BinderIds{n.get(), {-1, -1}});
    for (std::size_t b = 0; b < count; ++b) {
      ids[b] = grow(table.intern(b == 0 ? n->x.name : n->y.name));
      met.ids[b] = static_cast<int>(ids[b]);
      if (table.bound_[ids[b]]) unique = false; // bound twice (or ⟨x, x⟩)
      table.bound_[ids[b]] = true;
      in_scope[ids[b]] = 1;
    }
    self(self, n->body());
    for (std::size_t b = 0; b < count; ++b)
      in_scope[ids[b]] = 0;
  };
  on_stack_for(t, [&] { walk(walk, t); });
  for (std::size_t i = 0; i < outside.size() && unique; ++i)
    if (outside[i] != 0 && table.bound_[i]) unique = false; // free and bound
  if (!unique) return std::nullopt;
  return table;
}

void FreeTable::write_binder_counts(const Term& t) const {
  if (t.get() == root_) { // the binders met when the table was made, with their names' ids
    for (const auto& [node, ids] : binders_) {
      node->bound_count[0] = counts_[static_cast<std::size_t>(ids[0])];
      if (ids[1] >= 0) node->bound_count[1] = counts_[static_cast<std::size_t>(ids[1])];
    }
    return;
  }
  // the table was made, so every node of t is (no shared copy waits to be forced)
  const auto walk = [&](const auto& self, const Node& n) -> void {
    if (n.kind == Kind::lam || n.kind == Kind::let || n.kind == Kind::let_pair) {
      n.bound_count[0] = count(n.x.name);
      if (n.kind == Kind::let_pair) n.bound_count[1] = count(n.y.name);
    }
    for (const Term& k : n.kids)
      self(self, *k);
  };
  on_stack_for(t, [&] { walk(walk, *t); });
}

} // namespace adsem::linear_negation
