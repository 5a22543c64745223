#pragma once
// Answers remembered by term node that do not keep the nodes alive. A memo that held its nodes
// (to keep an address from being reused by a new node) kept every term it was asked about: rule
// 8 (seed 000 Fig. 3 L240) asks is_let_series of the rest of the series at every stage, and on
// the wide sum every stage rebuilds the whole rest, so all n versions stayed (memory cubic in n).
// An entry holds a weak reference instead: the node's block (make_shared: node and counts in one
// allocation) is not freed while the entry lives, so its address is not reused, but the node and
// everything below it are released with the term. Entries of released nodes are swept when the
// memo has doubled since the last sweep (amortised constant per insertion).
#include <algorithm>
#include <cstddef>
#include <memory>
#include <unordered_map>
#include <utility>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

template <class V> class NodeMemo {
public:
  explicit NodeMemo(std::size_t limit) : limit_(limit) {}

  // The answer remembered for t (t is alive: an entry under its address is t's own).
  const V* find(const Term& t) const {
    const auto it = entries_.find(t.get());
    return it == entries_.end() ? nullptr : &it->second.second;
  }
  // t is marked (keyed_mark): an edit in place would change the node under its answer.
  void insert(const Term& t, V value) {
    if (entries_.size() >= 2 * swept_size_) sweep();
    t->keyed_mark.set();
    entries_.emplace(t.get(), std::pair<WeakNode<const Node>, V>{t, std::move(value)});
  }

private:
  static constexpr std::size_t min_sweep = 1024;
  void sweep() {
    std::erase_if(entries_, [](const auto& e) { return e.second.first.expired(); });
    if (entries_.size() > limit_) entries_.clear(); // still too many live entries: restart
    swept_size_ = std::max(min_sweep, entries_.size());
  }
  std::unordered_map<const Node*, std::pair<WeakNode<const Node>, V>> entries_;
  std::size_t limit_;
  std::size_t swept_size_ = min_sweep;
};

} // namespace adsem::pullback
