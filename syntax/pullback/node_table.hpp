#pragma once
// A map from term nodes to answers that holds its nodes, stored flat. [perf] The reducer's inert
// subterms and the type checker's memo ask it at every node and fill it with every node of a run;
// a node-based std::unordered_map allocated an entry per insertion and, at the end of each
// trial, walked a linked entry per node to free them (the type checker's memo's destructor was
// 12% of subject-reduction's samples). Here the entries are one vector in insertion order and the
// index is an open-addressing table of positions (linear probing, load at most 1/2): no
// allocation per entry, and clearing walks contiguous memory. Entries are only added, never
// removed one by one (clear() drops them all). An entry holds its node, so the address of a key
// cannot be reused by a new node while the entry lives.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// Hold: how an entry holds its node. Term keeps the node alive; WeakNode<const Node> keeps
// only its block (make_shared: node and counts in one allocation), so the key's address is still
// not reused while the entry lives, but the node and everything below it are released with the
// term. A weak entry's node must never change in place while the entry lives.
template <class V, class Hold = Term> class NodeTable {
public:
  // The answer for n, or nullptr.
  const V* find(const Node* n) const {
    if (slots_.empty()) return nullptr;
    const std::size_t at = probe(n);
    return slots_[at] == none ? nullptr : &entries_[slots_[at]].value;
  }
  // Adds t's answer unless t has one already (then that one stays, as map::emplace).
  void emplace(const Term& t, V value) { place(t, std::move(value), false); }
  // Adds t's answer or replaces the one it has (as map::insert_or_assign).
  void insert_or_assign(const Term& t, V value) { place(t, std::move(value), true); }
  std::size_t size() const { return entries_.size(); }
  void clear() {
    entries_.clear();
    slots_.clear();
  }

private:
  static constexpr std::uint32_t none = UINT32_MAX;

  static std::size_t hash(const Node* n) {
    // Nodes are at least 16-byte aligned: the low bits carry nothing; Fibonacci hashing spreads
    // the rest over the table's bits.
    return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(n) >> 4) *
                                    0x9E3779B97F4A7C15ULL);
  }
  // The slot holding n, or the empty slot where it belongs (never full).
  std::size_t probe(const Node* n) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = (hash(n) >> shift_) & mask;; i = (i + 1) & mask) {
      const std::uint32_t e = slots_[i];
      if (e == none || entries_[e].key() == n) return i;
    }
  }
  void place(const Term& t, V value, bool replace) {
    if (2 * (entries_.size() + 1) > slots_.size()) grow();
    const std::size_t at = probe(t.get());
    if (slots_[at] != none) {
      if (replace) entries_[slots_[at]].value = std::move(value);
      return;
    }
    slots_[at] = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back(t, std::move(value));
  }
  // Doubles the index and places every entry again. [perf] The entries get room for as many as
  // the index takes before it grows again (half its size): most tables (a reducer's inert
  // subterms, one per trial's run) hold a few dozen entries, and the vector's own doubling
  // from one entry moved them, and allocated, five times more.
  void grow() {
    const std::size_t size = slots_.empty() ? 64 : 2 * slots_.size();
    entries_.reserve(size / 2);
    slots_.assign(size, none);
    shift_ = 64;
    for (std::size_t s = size; s > 1; s >>= 1)
      --shift_; // the top log2(size) bits of the hash
    const std::size_t mask = size - 1;
    for (std::size_t e = 0; e < entries_.size(); ++e) {
      std::size_t i = (hash(entries_[e].key()) >> shift_) & mask;
      while (slots_[i] != none)
        i = (i + 1) & mask;
      slots_[i] = static_cast<std::uint32_t>(e);
    }
  }

  // A held node gives its own address; a weak hold does not (its node may be gone), so the
  // address is kept beside it.
  struct HeldEntry {
    HeldEntry(const Term& t, V v) : hold(t), value(std::move(v)) {}
    Hold hold;
    V value;
    const Node* key() const { return hold.get(); }
  };
  struct KeyedEntry {
    KeyedEntry(const Term& t, V v) : address(t.get()), hold(t), value(std::move(v)) {}
    const Node* address;
    Hold hold;
    V value;
    const Node* key() const { return address; }
  };
  using Entry = std::conditional_t<std::is_same_v<Hold, Term>, HeldEntry, KeyedEntry>;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> slots_; // positions in entries_; a power of two in size
  int shift_ = 64;
};

} // namespace adsem::pullback
