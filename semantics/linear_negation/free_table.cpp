// One free-count table per term (free_table.hpp): a walk that interns every name, counts the
// variable occurrences and checks the Barendregt convention the reducer keeps (spec §2.8).
#include "semantics/linear_negation/free_table.hpp"

#include <algorithm>
#include <array>

#include "syntax/linear_negation/nesting.hpp"

namespace adsem::linear_negation {

int FreeTable::intern(std::string_view name) {
  const int id = names_.intern(name);
  if (static_cast<std::size_t>(id) == counts_.size()) { // new
    counts_.push_back(0);
    bound_.push_back(false);
  }
  return id;
}

int FreeTable::id(std::string_view name) const {
  return names_.id(name);
}

int FreeTable::count(std::string_view name) const {
  const int i = id(name);
  return i < 0 ? 0 : counts_[static_cast<std::size_t>(i)];
}

std::optional<FreeTable> FreeTable::of(const Term& t) {
  FreeTable table;
  // about one name for every two nodes: room made once, not at each doubling
  const auto room = static_cast<std::size_t>(t->size / 2 + 1);
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
