#pragma once
// The free-variable counts of a whole term in one table (dense name ids), for a reducer whose
// term keeps its binders unique: the side conditions of rules (9) and (10) (seed 002, Table 2a)
// ask only free_count(x, body) at x's own binder, and when no name is bound twice nor bound and
// free, that count is the number of occurrences of x anywhere in the term. The reducer checks the
// uniqueness with it before it keeps each binder's count on the binder node (Reducer's count
// mode, ast.hpp's bound_count); tests check the table against the per-node lists.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/name_table.hpp"

namespace adsem::linear_negation {

class FreeTable {
public:
  // The table of t, or nothing when a binder name of t is bound twice or also occurs outside
  // its binder's scope (the reducer then keeps the per-node lists), or when t holds a shared
  // copy of rule (9) not made yet (its binders are named only when made; nothing is forced).
  static std::optional<FreeTable> of(const Term& t);

  // The name's dense id, or -1 when t neither binds nor mentions it.
  int id(std::string_view name) const;
  // The occurrences of the name in t: at a binder of the name, free_count(name, body).
  int count(std::string_view name) const;
  std::size_t names() const { return counts_.size(); }
  const std::string& name(int id) const { return names_.name(id); }
  int count_of(int id) const { return counts_[static_cast<std::size_t>(id)]; }
  // Writes on each binder node of t, the term of the table (unchanged since: its binder nodes
  // are kept from the walk), its name's count: with the binders unique, free_count(x, body) at
  // x's binder (what count_binders finds in a walk of its own).
  void write_binder_counts(const Term& t) const;
  // Every name of t, bound or free, once each (by id): what Names(t) takes.
  const std::vector<std::string>& every_name() const { return names_.names(); }
  // The same in the table's own set, which a Names copies (without hashing each name again).
  const NameTable& name_table() const { return names_; }
  // f(node, ids) for each binder node of t (λ, let, let-pair), as the walk met them, with the ids
  // of its names (name_table's; y's -1 but for a pair pattern).
  template <class F> void for_each_binder(F&& f) const {
    for (const BinderIds& b : binders_)
      f(*b.node, b.ids);
  }
  // Whether this is the table of t.
  bool of_term(const Term& t) const { return t.get() == root_; }

private:
  int intern(std::string_view name);

  // The ids by name in an open-addressed table (name_table.hpp): a lookup allocates nothing (a
  // node-based map built a key string and a node per name, and hashed by a library call: about
  // 1.6% of a throughput run of small terms, whose reducer makes one table per term).
  NameTable names_;
  std::vector<int> counts_; // by id
  std::vector<bool> bound_; // the name has a binder in t
  // t's binder nodes with their names' ids (y's -1 but for a pair pattern), met in the walk:
  // write_binder_counts(t) reads them instead of walking t and hashing each name again
  struct BinderIds {
    const Node* node;
    std::array<int, 2> ids;
  };
  const Node* root_ = nullptr;
  std::vector<BinderIds> binders_;
};

} // namespace adsem::linear_negation
