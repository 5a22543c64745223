#pragma once
// The occurrences of a binder's variable that rules (9) and (11) replace (seed 002, Table 2a):
// C{x} → C{v} at the first occurrence, t → t{v/z} at all of them, for a reducer that keeps the
// binders' counts (Reducer::keeps_counts). Where the reducer holds the redex alone, the nodes
// from (9)'s binder body down to the occurrence are written in place instead of rebuilt, so a
// step under a deep context no longer allocates a copy of every node on the way.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

// What a rule's result wrote in place below its redex: every node it wrote with the child it
// replaced, the lowest first (`path`: the reducer brings their summaries up to date from the
// bottom, Reducer::refresh_written), and those near the redex again in `near`, with the redex
// itself where (9) wrote its let into it (Reducer::redex_to_rewrite, child 0). A written node
// keeps its identity but not its contents, which the focus's comparison of a redex's
// explicit-substitution bodies with its contractum's (focus.cpp, same_core) must know; it looks
// no deeper than `depth` levels, and only those are noted there.
struct InPlaceWrites {
  static constexpr std::size_t depth = 8;
  std::vector<std::pair<Node*, std::size_t>> path;
  std::vector<std::pair<const Node*, std::size_t>> near;
  // The focus's path below a redex above the focus (Reducer::Frame): node g below the redex and
  // the child the path goes on to. Their measures and free-variable counts wait for the focus to
  // pop, so (9)'s descent along them counts the children off the path only (the path's child
  // holds what they leave, unless a child off the path is larger: then that one does, and the
  // path's child is counted off its list) and writes none of them: their child on the path stays
  // the node the frame below holds.
  struct Guide {
    virtual ~Guide() = default;
    virtual std::size_t size() const = 0;
    virtual std::pair<const Node*, std::size_t> at(std::size_t g) const = 0;
    // The first of the nodes from g on whose children off the path or binders may name a name
    // of the bit (size() if none): the nodes before it answer first_holding's common case.
    virtual std::size_t first_naming(std::size_t g, NameFilter bit) const = 0;
  };
  const Guide* guide = nullptr; // set by the reducer around the contraction, kept by clear()
  // What the descent along the guide found, for the reducer to read and reset (clear() leaves
  // them, so that a step without a guide does no more than before).
  std::size_t guided = 0;  // the guide's nodes the descent went through
  std::size_t left_by = 0; // the child it took at the last of them
  // The first of them whose child on the path the descent counted off its free-variable list
  // (made there and below, the path's lists are the reducer's to forget), or none.
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::size_t listed = none;
  void clear() {
    path.clear();
    near.clear();
  }
  bool written(const Node& n) const;
  bool wrote_child(const Node& n, std::size_t child) const;
  // The topmost written node is a summand: its parent is the last guided node, a sum.
  bool top_in_sum() const { return guided > 0 && guide->at(guided - 1).first->kind == Kind::add; }
};

// C{x} → C{v} (rule (9)): the leftmost of the c free occurrences of x in t replaced by v; the
// nodes on the way keep their binders' counts (unique binders: v holds none of their names).
// With `writes` (the reducer holds t's parent alone), each node on the way that only its parent
// holds is written in place and noted there, `level` levels below the redex: its measure and
// free-variable counts are brought up to date, its summaries are the reducer's to refresh.
Term replace_first_counted(const Term& t, const std::string& x, const Term& v, int c,
                           InPlaceWrites* writes, std::size_t level);

// t{v/z} (rule (11)): every one of the c free occurrences of z in t, the nodes on the way
// rebuilt (written in place, they measured no fewer instructions on the wide sum).
Term substitute_counted(const Term& t, const std::string& z, const Term& v, int c);

} // namespace adsem::linear_negation
