#pragma once
// The height of a term measured without recursion, for the entry of a pipeline whose walks
// recurse (renaming, free variables, type checking): a chain that a parser builds in a loop
// (1 + 1 + ... + 1) is as deep as it is long, and the first recursive walk on 14,000 summands
// overflowed the C++ stack. Past the budget's limit it throws the DepthGuard's located error
// (depth_guard.hpp) at the node where the limit is crossed, before any walk starts.
#include <unordered_map>
#include <utility>
#include <vector>

#include "syntax/core/depth_guard.hpp"

namespace adsem {

// `kids(node)` gives a node's children (a range of shared pointers), `pos(node)` its
// std::optional<SourcePos>. Linear in the number of distinct nodes (a shared node is measured
// once).
template <typename Term, typename Kids, typename Pos>
void check_depth(const Term& root, const DepthBudget& budget, const Kids& kids, const Pos& pos) {
  using Key = const void*;
  std::unordered_map<Key, int> height;
  std::vector<std::pair<const Term*, bool>> todo{{&root, false}};
  while (!todo.empty()) { // post-order: a node's height once its children have theirs
    const auto [at, expanded] = todo.back();
    todo.pop_back();
    if (height.count(at->get())) continue;
    if (!expanded) {
      todo.emplace_back(at, true);
      for (const Term& k : kids(*at))
        if (!height.count(k.get())) todo.emplace_back(&k, false);
      continue;
    }
    int h = 0;
    for (const Term& k : kids(*at))
      h = std::max(h, height.at(k.get()));
    height.emplace(at->get(), h + 1);
  }
  const int limit = budget.limit - budget.depth;
  if (height.at(root.get()) <= limit) return;
  const Term* at = &root; // descend along a deepest path to the node at the limit
  for (int depth = 1; depth < limit + 1; ++depth) {
    const Term* next = nullptr;
    for (const Term& k : kids(*at))
      if (!next || height.at(k.get()) > height.at(next->get())) next = &k;
    at = next;
  }
  throw AdsemError(budget.kind,
                   "term nested deeper than " + std::to_string(budget.limit) + " levels", pos(*at));
}

} // namespace adsem
