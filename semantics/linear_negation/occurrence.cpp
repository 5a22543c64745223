// Rules (9) and (11)'s replacement of a binder's occurrences (seed 002, Table 2a); (9)'s written
// in place along the way where the reducer holds the nodes alone.
#include "semantics/linear_negation/occurrence.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "syntax/core/inline_vector.hpp"

namespace adsem::linear_negation {

bool InPlaceWrites::written(const Node& n) const {
  return std::any_of(near.begin(), near.end(), [&](const auto& w) { return w.first == &n; });
}

bool InPlaceWrites::wrote_child(const Node& n, std::size_t child) const {
  return std::find(near.begin(), near.end(), std::pair{&n, child}) != near.end();
}

namespace {

// One count per child: a node has at most a primitive's arguments, almost always two or fewer.
using KidCounts = InlineVector<int, 4>;

// free_count(x, t) by a walk of a small subterm whose list is not made: (9)'s descent asks it of
// the siblings of its path, and most are a few nodes never asked again, where making and merging
// their lists cost more than looking at each node once. A made list, or a shared copy (its
// renaming), answers for its subtree.
constexpr long small_subterm = 16;

// x and its bit of Node::names_seen: a subterm whose bit is clear holds no x, answered at once.
struct Sought {
  const std::string& name;
  NameFilter bit;
};

// Whether the binder name b is x. (9)'s descent asks it at every explicit substitution it crosses,
// where with unique binders the answer is no, and the names of a family's series have the same
// length and mostly differ in their last digit: that is compared before the bytes are.
[[gnu::always_inline]] inline bool is_sought(const std::string& b, const Sought& x) {
  return b.size() == x.name.size() && (b.empty() || b.back() == x.name.back()) && b == x.name;
}

// Whether t binds x (its scope, child 0, holds no free occurrence of x).
[[gnu::always_inline]] inline bool rebinds(const Node& t, const Sought& x) {
  const bool binder = t.kind == Kind::lam || t.kind == Kind::let || t.kind == Kind::let_pair;
  return binder && (is_sought(t.x.name, x) || (t.kind == Kind::let_pair && is_sought(t.y.name, x)));
}

int walked_count(const Term& t, const Sought& x) {
  const Node& n = *t;
  if (!may_name(n, x.bit)) return 0;
  if (n.kind == Kind::var) return n.name == x.name ? 1 : 0;
  if (n.free_counts_known() || n.copy.unforced) return free_count(x.name, t); // (no kids made)
  const bool binds_x = rebinds(n, x);
  int count = 0;
  for (std::size_t i = 0; i < n.kids.size(); ++i)
    if (!(binds_x && i == 0)) count += walked_count(n.kids[i], x);
  return count;
}

int count_in(const Term& t, const Sought& x) {
  if (!may_name(*t, x.bit)) return 0;
  return t->size <= small_subterm ? walked_count(t, x) : free_count(x.name, t);
}

// The count of x free in each child of t, given c, its count in t: each child but the largest
// from its free-variable list, the largest by what is left, so that a descent along a deep stack
// of explicit substitutions never makes the lists of the stack's bodies.
KidCounts counts_in_kids(const Node& t, const Sought& x, int c) {
  const bool binds_x = rebinds(t, x);
  KidCounts out(t.kids.size(), 0);
  std::size_t largest = 0;
  for (std::size_t i = 1; i < t.kids.size(); ++i)
    if (t.kids[i]->size > t.kids[largest]->size) largest = i;
  int rest = c;
  for (std::size_t i = 0; i < t.kids.size(); ++i) {
    if (i == largest || (binds_x && i == 0)) continue;
    out[i] = count_in(t.kids[i], x);
    rest -= out[i];
  }
  if (!(binds_x && largest == 0)) out[largest] = rest;
  return out;
}

// The first child of t holding an occurrence of x, and its count of them (c in t): the children
// counted as counts_in_kids counts them, but left to right and only until the answer is known,
// which is as soon as a child before the largest holds one. Whether t binds x is asked only where
// it decides: at child 0 before the largest, or when the largest is child 0 (its scope).
// `largest`: the child whose count is what the others leave (the largest by size); `counted(i)`:
// child i's count.
template <typename Counted>
[[gnu::always_inline]] inline std::pair<std::size_t, int>
first_holding_by(const Node& t, const Sought& x, int c, std::size_t largest,
                 const Counted& counted) {
  for (std::size_t i = 0; i < largest; ++i) {
    if (i == 0 && rebinds(t, x)) continue;
    if (const int n = counted(i); n != 0) return {i, n};
  }
  // the children before the largest hold none: the largest holds what the others after it leave
  std::pair<std::size_t, int> first_after{t.kids.size(), 0};
  int rest = c;
  for (std::size_t i = largest + 1; i < t.kids.size(); ++i) {
    const int n = counted(i);
    rest -= n;
    if (n != 0 && first_after.second == 0) first_after = {i, n};
  }
  if (rest != 0 && !(largest == 0 && rebinds(t, x))) return {largest, rest}; // else it binds x
  return first_after;
}

[[gnu::always_inline]] inline std::size_t largest_kid(const Node& t) {
  if (t.kids.size() == 2) return t.kids[1]->size > t.kids[0]->size ? 1 : 0; // most nodes: no loop
  std::size_t largest = 0;
  for (std::size_t i = 1; i < t.kids.size(); ++i)
    if (t.kids[i]->size > t.kids[largest]->size) largest = i;
  return largest;
}

// Whether the child other than `largest` of a node of two children does not name x by its filter
// (first_holding_by would count it 0).
[[gnu::always_inline]] inline bool only_largest_names(const Node& t, const Sought& x,
                                                      std::size_t largest) {
  return t.kids.size() == 2 && !may_name(*t.kids[1 - largest], x.bit);
}
// first_holding_by's answer where child i's siblings hold no x: child i holds all c, unless it is
// the scope of a binder of x or c is 0 (then none does). The common case down a stack of explicit
// substitutions, whose bound terms are small and name other variables: answered without the loops.
[[gnu::always_inline]] inline std::pair<std::size_t, int>
held_all_by(const Node& t, const Sought& x, int c, std::size_t i) {
  if (c != 0 && !(i == 0 && rebinds(t, x))) return {i, c};
  return {t.kids.size(), 0};
}

// The children counted (kept out of line: the common answer above, inlined in the descent's loop,
// does without the registers and frame the counting needs).
[[gnu::noinline]] std::pair<std::size_t, int> first_holding_counted(const Node& t, const Sought& x,
                                                                    int c, std::size_t largest) {
  return first_holding_by(t, x, c, largest, [&](std::size_t i) { return count_in(t.kids[i], x); });
}

[[gnu::always_inline]] inline std::pair<std::size_t, int> first_holding(const Node& t,
                                                                        const Sought& x, int c) {
  // A node of two children one of which does not name x by its filter: the other holds all c,
  // answered without the children's sizes (an explicit substitution whose bound term names other
  // variables is a level of the descent down a stack of them).
  if (t.kids.size() == 2) {
    if (!may_name(*t.kids[1], x.bit)) return held_all_by(t, x, c, 0);
    if (!may_name(*t.kids[0], x.bit)) return held_all_by(t, x, c, 1);
  }
  return first_holding_counted(t, x, c, largest_kid(t));
}

// The same at a node of the focus's path whose child `on_path` goes on along it (its size as
// when the focus last left it): the path's child holds what the others leave when it is the
// largest, else it is counted off its list without its filter of names (its measure waits for the
// focus to pop), which `listed` notes.
std::pair<std::size_t, int> first_holding_along(const Node& t, const Sought& x, int c,
                                                std::size_t on_path, InPlaceWrites& writes) {
  // the child off the path lacks x by its filter (the common case, as in first_holding)
  if (t.kids.size() == 2 && !may_name(*t.kids[1 - on_path], x.bit))
    return held_all_by(t, x, c, on_path);
  std::size_t largest = largest_kid(t);
  if (t.kids[largest]->size <= t.kids[on_path]->size) {
    largest = on_path;
    if (only_largest_names(t, x, largest)) return held_all_by(t, x, c, largest);
  } else {
    writes.listed = std::min(writes.listed, writes.guided);
  }
  return first_holding_by(t, x, c, largest, [&](std::size_t i) {
    return i == on_path ? free_count(x.name, t.kids[i]) : count_in(t.kids[i], x);
  });
}

// The node t if it may be written in place: the reducer holds its parent alone (writes) and
// nothing but the parent holds t. Made non-const (ast.cpp).
Node* in_place(const Term& t, const InPlaceWrites* writes) {
  return writes != nullptr && t.use_count() == 1 ? const_cast<Node*>(t.get()) : nullptr;
}

// A node written in place measured again, its filter of names kept as it was besides the new
// bits (a superset is what the filter promises): whether its measure is what it was, in which
// case the nodes above the written one, whose other children are as they were, measure as they
// did too (a (9) of a leaf value, the common case, changes no measure above the occurrence).
bool measured_as_before(Node& n) {
  const std::tuple before{n.height, n.size, n.binders, n.plain_stems, n.names_seen};
  measure(n);
  n.names_seen |= std::get<4>(before);
  return before == std::tuple{n.height, n.size, n.binders, n.plain_stems, n.names_seen};
}

// The nodes from t down to the occurrence rebuilt (t is not held by the reducer alone).
Term replace_first_rebuilt(const Term& t, const Sought& x, const Term& v, int c) {
  if (t->kind == Kind::var) return v;
  force(*t);
  const auto [i, count] = first_holding(*t, x, c);
  if (i == t->kids.size())
    throw std::logic_error("linear-negation: a binder's count names an occurrence not found");
  std::vector<Term> kids = t->kids;
  kids[i] = replace_first_rebuilt(t->kids[i], x, v, count);
  return rebuild_counted(*t, std::move(kids));
}

// The nodes from t down that only their parent holds are written in place, found from the top
// and measured from the bottom by a loop (the descent crosses hundreds of explicit substitutions
// a step on the wide sum, where a recursion's frames and the self-assignment of every child
// cost more than the walk); from the first node held elsewhere down, the path is rebuilt.
Term replace_first_in(const Term& t, const Sought& x, const Term& v, int c, InPlaceWrites* writes,
                      std::size_t level) {
  if (t->kind == Kind::var) return v;
  Node* n = in_place(t, writes);
  if (n == nullptr) return replace_first_rebuilt(t, x, v, c);
  auto& path = writes->path; // top down for now
  const std::size_t from = path.size();
  const InPlaceWrites::Guide* guide = writes->guide;
  // the frames stay as they are while the contractum is made: their number is read once
  const std::size_t guide_size = guide != nullptr ? guide->size() : 0;
  for (int count = c;;) {
    if (n->copy.unforced) force(*n); // (a call a level saved where there is nothing to force)
    bool along = false;
    std::size_t on_path = 0;
    if (writes->guided < guide_size) {
      auto [node, k] = guide->at(writes->guided);
      along = node == n;
      if (along && writes->guided + 2 < guide_size) {
        // A run of the path's nodes whose children off it and binders do not name x by their
        // filters: each holds all `count` in its child on the path (first_holding_along's common
        // case, unique binders), passed at once. The RNN's descents from a binder near the root
        // cross a thousand frames this way at n = 1,000. The last node is left to the loop.
        const std::size_t to = std::min(guide->first_naming(writes->guided, x.bit), guide_size - 1);
        if (to > writes->guided) {
          writes->left_by = guide->at(to - 1).second;
          writes->guided = to;
          std::tie(node, k) = guide->at(to);
          n = const_cast<Node*>(node); // the path's nodes are held alone (in_place)
        }
      }
      on_path = k;
    }
    const auto [i, in_kid] =
        along ? first_holding_along(*n, x, count, on_path, *writes) : first_holding(*n, x, count);
    if (i == n->kids.size())
      throw std::logic_error("linear-negation: a binder's count names an occurrence not found");
    if (along) {
      ++writes->guided;
      writes->left_by = i;
    } else {
      path.emplace_back(n, i);
    }
    Term& kid = n->kids[i];
    Node* below = kid->kind == Kind::var ? nullptr : in_place(kid, writes);
    if (along && i == on_path && below == nullptr && writes->guided < guide_size)
      throw std::logic_error("linear-negation: the focus's path is held elsewhere");
    if (below == nullptr) {
      kid = replace_first_rebuilt(kid, x, v, in_kid);
      break;
    }
    n = below;
    count = in_kid;
  }
  std::reverse(path.begin() + static_cast<long>(from), path.end()); // the lowest first
  bool same_measure = false; // the child below measures as before
  for (std::size_t j = from; j < path.size(); ++j) {
    Node& m = *path[j].first;
    m.forget_free_counts();
    same_measure = same_measure || measured_as_before(m);
  }
  // the nodes within `depth` levels of the redex, the lowest first: path[j] is
  // level + guided + (path.size() - 1 - j) levels below it (a loop apart from the one above, which
  // runs hundreds of levels a step on the wide sum and needs no level of its own)
  const std::size_t above = level + writes->guided;
  if (above < InPlaceWrites::depth) {
    const std::size_t within = std::min(InPlaceWrites::depth - above, path.size() - from);
    for (std::size_t j = path.size() - within; j < path.size(); ++j)
      writes->near.emplace_back(path[j].first, path[j].second);
  }
  return t;
}

Term substitute_in(const Term& t, const Sought& z, const Term& v, int c) {
  if (c == 0) return t;
  if (t->kind == Kind::var) return v;
  // A shared copy not forced yet is renamed once more instead of forced and rebuilt: on the wide
  // sum, (11)'s body is (9)'s copy of λa. S_k, every summand of which names z.
  if (t->copy.unforced && v->kind == Kind::var)
    if (Term renamed = substituted_copy(*t, z.name, v->name, c)) return renamed;
  force(*t);
  const KidCounts counts = counts_in_kids(*t, z, c);
  std::vector<Term> kids = t->kids;
  for (std::size_t i = 0; i < kids.size(); ++i)
    kids[i] = substitute_in(kids[i], z, v, counts[i]);
  return rebuild_counted(*t, std::move(kids));
}

} // namespace

Term replace_first_counted(const Term& t, const std::string& x, const Term& v, int c,
                           InPlaceWrites* writes, std::size_t level) {
  return replace_first_in(t, Sought{x, name_bits(x)}, v, c, writes, level);
}

Term substitute_counted(const Term& t, const std::string& z, const Term& v, int c) {
  return substitute_in(t, Sought{z, name_bits(z)}, v, c);
}

} // namespace adsem::linear_negation
