#include "syntax/linear_negation/ast.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <functional>
#include <iterator>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "syntax/core/depth_guard.hpp"
#include "syntax/linear_negation/nesting.hpp"

namespace adsem::linear_negation {

// ---- types ----

Type real_type() {
  static const Type r = make_shared_node<const TypeNode>(TypeNode{});
  return r;
}
Type product_type(Type a, Type b) {
  return make_shared_node<const TypeNode>(
      TypeNode{TypeNode::Kind::product, 1, std::move(a), std::move(b)});
}
Type arrow_type(Type a, Type b) {
  return make_shared_node<const TypeNode>(
      TypeNode{TypeNode::Kind::arrow, 1, std::move(a), std::move(b)});
}
Type neg_type(int d) {
  return make_shared_node<const TypeNode>(TypeNode{TypeNode::Kind::neg, d, nullptr, nullptr});
}
Type euclidean(int d) {
  return d <= 1 ? real_type() : product_type(real_type(), euclidean(d - 1));
}
bool same_type(const Type& a, const Type& b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
  case TypeNode::Kind::real:
    return true;
  case TypeNode::Kind::neg:
    return a->dim == b->dim;
  default:
    return same_type(a->left, b->left) && same_type(a->right, b->right);
  }
}
bool is_real(const Type& t) {
  return t && t->kind == TypeNode::Kind::real;
}
bool is_neg(const Type& t) {
  return t && t->kind == TypeNode::Kind::neg;
}
bool is_arrow(const Type& t) {
  return t && t->kind == TypeNode::Kind::arrow;
}
bool is_product(const Type& t) {
  return t && t->kind == TypeNode::Kind::product;
}
bool is_first_order(const Type& t) {
  return is_real(t) || (is_product(t) && is_first_order(t->left) && is_first_order(t->right));
}
int euclidean_dim(const Type& t) {
  return is_product(t) ? euclidean_dim(t->left) + euclidean_dim(t->right) : 1;
}
bool is_euclidean(const Type& t) {
  return is_real(t) || (is_product(t) && is_real(t->left) && is_euclidean(t->right));
}
bool has_neg(const Type& t) {
  if (!t) return false;
  if (is_neg(t)) return true;
  return (t->left && has_neg(t->left)) || (t->right && has_neg(t->right));
}

namespace {
std::string type_text_at(const Type& t, int level) { // 0 arrow, 1 product, 2 atom
  switch (t->kind) {
  case TypeNode::Kind::real:
    return "R";
  case TypeNode::Kind::neg:
    return level >= 1
               ? "(" + std::string(t->dim == 1 ? "R -o R" : fmt::format("R -o R^{}", t->dim)) + ")"
               : (t->dim == 1 ? "R -o R" : fmt::format("R -o R^{}", t->dim));
  case TypeNode::Kind::product: {
    const std::string s = type_text_at(t->left, 2) + " * " + type_text_at(t->right, 1);
    return level >= 2 ? "(" + s + ")" : s;
  }
  case TypeNode::Kind::arrow: {
    const std::string s = type_text_at(t->left, 1) + " -> " + type_text_at(t->right, 0);
    return level >= 1 ? "(" + s + ")" : s;
  }
  }
  return "?";
}
} // namespace

std::string type_text(const Type& t) {
  return t ? type_text_at(t, 0) : "?";
}

// ---- nodes ----

namespace {
// Not a const object: the reducer's in-place step may replace a child of a node it alone holds.
// Made where it lives and filled there (`fill` sets its fields, then it is measured): a node is a
// few hundred bytes, and building it aside and moving it in cost more than the rest of making a
// small one.
template <typename Fill> Term make(const Fill& fill) {
  auto n = make_shared_node<Node>();
  fill(*n);
  measure(*n);
  return n;
}

// A node's children, moved from the maker's arguments: assigning a braced list would copy each (a
// list's elements are const), a count taken and dropped per child.
template <typename... Kids> void set_kids(Node& n, Kids&... kids) {
  n.kids.reserve(sizeof...(Kids));
  (n.kids.push_back(std::move(kids)), ...);
}

bool binds_names(Kind k) {
  return k == Kind::lam || k == Kind::let || k == Kind::let_pair;
}
} // namespace

// Summed in locals and stored once: stored into n at each child, every field was written and read
// again per child (n could be a child, for all the compiler knows). A step measures every node it
// rebuilds, on its path and in its contractum.
void measure(Node& n) {
  int height = 1;
  long size = 1;
  long binders = 0;
  bool plain_stems = true;
  NameFilter names_seen = n.kind == Kind::var ? name_bits(n.name) : 0;
  if (binds_names(n.kind)) {
    binders = n.kind == Kind::let_pair ? 2 : 1;
    plain_stems =
        !n.x.name.starts_with('_') && (n.kind != Kind::let_pair || !n.y.name.starts_with('_'));
  }
  for (const Term& k : n.kids) {
    height = std::max(height, k->height + 1);
    size += k->size;
    binders += k->binders;
    plain_stems = plain_stems && k->plain_stems;
    names_seen |= k->names_seen;
  }
  n.height = height;
  n.size = size;
  n.binders = binders;
  n.plain_stems = plain_stems;
  n.names_seen = names_seen;
}

namespace {
const Node::FreeCounts& no_free_variables() {
  static const Node::FreeCounts none;
  return none;
}
} // namespace

static_assert(std::is_trivially_copyable_v<FreeEntry>);

std::span<const FreeEntry> free_counts_of(const Node& n, FreeEntry& single) {
  if (n.kind != Kind::var) return n.free_counts();
  single = {n.name, 1};
  return {&single, 1};
}

namespace {

bool binds_name(const Node& n, std::string_view v) {
  return v == n.x.name || (n.kind == Kind::let_pair && v == n.y.name);
}

using FreeList = std::span<const FreeEntry>;

// The list of a node one of whose children lists nearly all its free names (a stack of explicit
// substitutions, seed 002 Cor. 16's wrappers: each body lists O(n) names, its bound term a few):
// the big child's list is copied and the few other entries are put in by binary search, instead
// of merging every name by comparison. None when the node is not of that shape. Kept out of
// Node::free_counts, whose merge of small lists stays as small as it was.
constexpr std::size_t many = 32; // a big child's list at least this long

[[gnu::noinline]] std::optional<Node::FreeCounts> spliced_counts(const Node& n, bool binder) {
  constexpr std::size_t most_kids = 3;
  constexpr std::size_t few = 8; // the other children's entries put in one at a time
  if (n.kids.size() > most_kids) return std::nullopt;
  std::array<FreeEntry, most_kids> singles;
  std::array<FreeList, most_kids> lists;
  std::size_t big = 0;
  std::size_t total = 0;
  for (std::size_t i = 0; i < n.kids.size(); ++i) {
    lists[i] = free_counts_of(*n.kids[i], singles[i]);
    total += lists[i].size();
    if (lists[i].size() > lists[big].size()) big = i;
  }
  if (lists[big].size() < many || total - lists[big].size() > few) return std::nullopt;
  const auto by_name = [](const FreeEntry& e, std::string_view v) {
    return compare_names(e.first, v) < 0;
  };
  Node::FreeCounts out;
  out.reserve(total);
  out.assign(lists[big].begin(), lists[big].end());
  if (binder && big == 0) { // the binder's names left out of the body's
    for (const std::string* name : {&n.x.name, &n.y.name}) {
      if (name == &n.y.name && n.kind != Kind::let_pair) continue;
      const auto at = std::lower_bound(out.begin(), out.end(), std::string_view(*name), by_name);
      if (at != out.end() && at->first == *name) out.erase(at);
    }
  }
  for (std::size_t i = 0; i < n.kids.size(); ++i) {
    if (i == big) continue;
    for (const auto& [v, c] : lists[i]) {
      if (binder && i == 0 && binds_name(n, v)) continue;
      const auto at = std::lower_bound(out.begin(), out.end(), v, by_name);
      if (at != out.end() && compare_names(at->first, v) == 0)
        at->second += c; // its view may be another child's: the same name, alive as long
      else
        out.insert(at, FreeEntry{v, c});
    }
  }
  return out;
}

// A sum whose list is not made (nor read off a shared copy's original).
bool unlisted_sum(const Term& k) {
  return k->kind == Kind::add && !k->free_counts_known() && !k->copy.unforced;
}

// Whether a list names a variable twice (an unforced copy whose renaming met a name already free:
// merging such lists pairs the entries one by one, which a sort of all of them does not).
bool names_twice(FreeList list) {
  return std::adjacent_find(list.begin(), list.end(), [](const FreeEntry& a, const FreeEntry& b) {
           return a.first == b.first;
         }) != list.end();
}

// A name's first eight characters (zeros past its end) read as a big-endian number: a smaller
// number is a name before in compare_names's order (a name that ends is before one it begins).
std::uint64_t name_prefix(std::string_view v) {
  constexpr std::size_t width = sizeof(std::uint64_t);
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < width; ++i)
    key = (key << 8U) | (i < v.size() ? static_cast<unsigned char>(v[i]) : 0U);
  return key;
}

// Whether two names of the same name_prefix are the same: their first eight characters are,
// and their zeros past a shorter name's end stand for as many characters missing.
bool same_keyed_name(std::string_view a, std::string_view b) {
  constexpr std::size_t width = sizeof(std::uint64_t);
  return a.size() == b.size() && (a.size() <= width || a.substr(width) == b.substr(width));
}

// The variables of a small summand, one entry each (a name twice is two entries): its
// free-variable list's entries, which the sum's sort adds up as the merge of its list would,
// without its list made (Cor. 16's sum has its hundreds of summands `x a` made anew at each
// stage, and making their lists cost more than the sort of their entries). False where a node
// binds, is a shared copy not forced, or has its list made (the list answers for it).
struct Leaves {
  std::array<FreeEntry, 16> at;
  std::size_t count = 0;
};
bool variable_leaves(const Node& t, Leaves& out) {
  if (t.kind == Kind::var) {
    if (out.count == out.at.size()) return false;
    out.at[out.count++] = {t.name, 1};
    return true;
  }
  if (binds_names(t.kind) || t.copy.unforced || t.free_counts_known()) return false;
  return std::all_of(t.kids.begin(), t.kids.end(),
                     [&](const Term& k) { return variable_leaves(*k, out); });
}

// The list of a large sum from its summands' lists, without making the list of each sum below it:
// (11) builds every sum of Cor. 16's wrapper anew, and merging the spine of a sum of k summands
// made k lists of up to k names, O(k²) a sum, where the rules' notes read only the top's. The
// summands are the leaves of the nested additions whose lists are not made (a made list, or a
// shared copy's, answers for its sum); a small one's variables are read without its list made
// (variable_leaves). None when a summand's list names a variable twice, or
// when the sum has fewer than `many` such additions (the RNN's: merging their short lists costs
// less than sorting).
[[gnu::noinline]] std::optional<Node::FreeCounts> summed_counts(const Node& n) {
  // first whether there are enough of them along one path, without a buffer (most large sums
  // have a few; a sum made by sum_of nests on the left)
  std::size_t chain = 1;
  for (const Node* s = &n; chain < many; ++chain) {
    const Term* next = unlisted_sum(s->kids[0])   ? &s->kids[0]
                       : unlisted_sum(s->kids[1]) ? &s->kids[1]
                                                  : nullptr;
    if (next == nullptr) return std::nullopt;
    s = next->get();
  }
  // the entries, each with its name's first characters as a number, which orders the names as
  // compare_names does where they differ there: the sort compares numbers, and names only where
  // those agree
  struct Keyed {
    std::uint64_t key;
    FreeEntry entry;
  };
  std::vector<Keyed> all;
  all.reserve(static_cast<std::size_t>(n.size / 4) + 2); // Cor. 16's: a name a summand, and `a`
  // A name met again is added to its entry, found by a few bits of its number: the sort then
  // orders each name once (Cor. 16's λ-bound variable occurs in every summand).
  constexpr std::size_t slots = 16;
  constexpr std::size_t none = SIZE_MAX;
  std::array<std::size_t, slots> last{};
  last.fill(none);
  const auto put = [&](const FreeEntry& e) {
    const std::uint64_t key = name_prefix(e.first);
    std::size_t& at = last[(key * 0x9E3779B97F4A7C15ULL) >> 60U];
    if (at != none && all[at].key == key && same_keyed_name(all[at].entry.first, e.first)) {
      all[at].entry.second += e.second;
      return;
    }
    at = all.size();
    all.push_back({key, e});
  };
  std::vector<const Node*> todo{&n};
  todo.reserve(many);
  Leaves leaves;
  while (!todo.empty()) {
    const Node& s = *todo.back();
    todo.pop_back();
    for (const Term& k : s.kids) {
      if (unlisted_sum(k)) {
        todo.push_back(k.get());
        continue;
      }
      leaves.count = 0;
      if (k->size <= static_cast<long>(leaves.at.size()) && variable_leaves(*k, leaves)) {
        for (std::size_t i = 0; i < leaves.count; ++i)
          put(leaves.at[i]);
        continue;
      }
      FreeEntry single;
      const FreeList list = free_counts_of(*k, single);
      if (names_twice(list)) return std::nullopt;
      for (const FreeEntry& e : list)
        put(e);
    }
  }
  std::sort(all.begin(), all.end(), [](const Keyed& a, const Keyed& b) {
    return a.key != b.key ? a.key < b.key : compare_names(a.entry.first, b.entry.first) < 0;
  });
  Node::FreeCounts out;
  out.reserve(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& [key, e] = all[i];
    if (i > 0 && all[i - 1].key == key && same_keyed_name(all[i - 1].entry.first, e.first))
      out.back().second += e.second; // (a name whose slot another name took in between)
    else
      out.push_back(e);
  }
  return out;
}

// Whether n is a large sum over a sum whose list is not made (summed_counts's case).
bool sum_of_unlisted_sums(const Node& n) {
  return n.kind == Kind::add && n.size >= static_cast<long>(4 * many) && n.kids.size() == 2 &&
         (unlisted_sum(n.kids[0]) || unlisted_sum(n.kids[1]));
}

} // namespace

const Node::FreeCounts& Node::free_counts() const {
  if (fv_cache_.counts) return *fv_cache_.counts;
  if (copy.unforced) { // the original's, renamed (the views point into the suspension)
    Suspension& s = *copy.from;
    FreeCounts out = s.original->free_counts();
    const bool named = !s.free_names.empty();     // asked again: the same names, the same order
    if (!named) s.free_names.reserve(out.size()); // no reallocation: the views stay valid
    // The names env renames are few (those the copy binds above it): the others keep their
    // order, and the renamed ones are sorted apart and merged in, which gives the list a sort of
    // the whole would (on the wide sum a copy lists O(n) names, and the sort was 5% of its run).
    FreeCounts kept, renamed;
    kept.reserve(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      const std::string_view before = out[i].first;
      auto& v = out[i].first;
      if (named) {
        v = s.free_names[i];
      } else {
        const std::string* to = renamed_in(s.env, v);
        v = s.free_names.emplace_back(to ? *to : std::string(v));
      }
      (v == before ? kept : renamed).push_back(out[i]);
    }
    if (renamed.empty()) return kept_counts(std::move(kept));
    const auto in_order = [](const FreeEntry& a, const FreeEntry& b) {
      const int order = compare_names(a.first, b.first);
      return order < 0 || (order == 0 && a.second < b.second);
    };
    std::sort(renamed.begin(), renamed.end(), in_order);
    out.clear();
    std::merge(kept.begin(), kept.end(), renamed.begin(), renamed.end(), std::back_inserter(out),
               in_order);
    return kept_counts(std::move(out));
  }
  if (kind == Kind::var || kids.empty()) return no_free_variables(); // a variable: see free_count
  const bool binder = kind == Kind::lam || kind == Kind::let || kind == Kind::let_pair;
  if (sum_of_unlisted_sums(*this))
    if (auto summed = summed_counts(*this)) return kept_counts(std::move(*summed));
  // A node below a few times `many` is merged: it lists few names, and its small terms (a
  // campaign's) are the most frequent, where looking at the children's lists twice cost more.
  if (size >= static_cast<long>(4 * many))
    if (auto spliced = spliced_counts(*this, binder)) return kept_counts(std::move(*spliced));
  // merge the children's sorted lists, the binder's names left out of the body's
  const auto bound_here = [&](std::size_t i, std::string_view v) {
    return binder && i == 0 && (v == x.name || (kind == Kind::let_pair && v == y.name));
  };
  if (kids.size() == 2) { // most nodes: one merge into one list (the same list as below)
    FreeEntry first_single, second_single;
    const auto first = free_counts_of(*kids[0], first_single);
    const auto second = free_counts_of(*kids[1], second_single);
    FreeCounts out;
    out.reserve(first.size() + second.size());
    auto a = first.begin();
    for (const auto& [v, c] : second) {
      int order = -1;
      for (; a != first.end(); ++a) {
        if (bound_here(0, a->first)) continue;
        if ((order = compare_names(a->first, v)) >= 0) break;
        out.push_back(*a);
      }
      if (a != first.end() && order == 0)
        out.push_back(FreeEntry{v, (a++)->second + c});
      else
        out.push_back(FreeEntry{v, c});
    }
    for (; a != first.end(); ++a)
      if (!bound_here(0, a->first)) out.push_back(*a);
    return kept_counts(std::move(out));
  }
  FreeCounts out;
  FreeCounts merged;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    FreeEntry single;
    const auto child = free_counts_of(*kids[i], single);
    const bool binds = binder && i == 0;
    merged.clear();
    merged.reserve(out.size() + child.size());
    auto a = out.begin();
    for (const auto& [v, c] : child) {
      if (binds && (v == x.name || (kind == Kind::let_pair && v == y.name))) continue;
      int order = -1;
      while (a != out.end() && (order = compare_names(a->first, v)) < 0)
        merged.push_back(*a++);
      if (a != out.end() && order == 0)
        merged.push_back(FreeEntry{v, (a++)->second + c});
      else
        merged.push_back(FreeEntry{v, c});
    }
    merged.insert(merged.end(), a, out.end());
    out.swap(merged);
  }
  return kept_counts(std::move(out));
}

Term var(std::string name) {
  return make([&](Node& n) {
    n.kind = Kind::var;
    n.name = std::move(name);
  });
}
Term num(double r) {
  return make([&](Node& n) {
    n.kind = Kind::num;
    n.value = r == 0.0 ? 0.0 : r; // no -0
  });
}
Term lam(Binder x, Term body) {
  return make([&](Node& n) {
    n.kind = Kind::lam;
    n.x = std::move(x);
    set_kids(n, body);
  });
}
Term app(Term f, Term u) {
  return make([&](Node& n) {
    n.kind = Kind::app;
    set_kids(n, f, u);
  });
}
Term pair(Term a, Term b) {
  return make([&](Node& n) {
    n.kind = Kind::pair;
    set_kids(n, a, b);
  });
}
Term tuple(const std::vector<Term>& items) {
  if (items.empty()) throw std::logic_error("empty tuple");
  Term out = items.back();
  for (std::size_t i = items.size() - 1; i-- > 0;)
    out = pair(items[i], out);
  return out;
}
Term let(Binder x, Term body, Term bound) {
  return make([&](Node& n) {
    n.kind = Kind::let;
    n.x = std::move(x);
    set_kids(n, body, bound);
  });
}
Term let_pair(Binder x, Binder y, Term body, Term bound) {
  return make([&](Node& n) {
    n.kind = Kind::let_pair;
    n.x = std::move(x);
    n.y = std::move(y);
    set_kids(n, body, bound);
  });
}
Term add(Term a, Term b) {
  return make([&](Node& n) {
    n.kind = Kind::add;
    set_kids(n, a, b);
  });
}
Term prim(std::string name, std::vector<Term> args) {
  return make([&](Node& n) {
    n.kind = Kind::prim;
    n.name = std::move(name);
    n.kids = std::move(args);
  });
}
Term mul(Term a, Term b) {
  std::vector<Term> args; // moved in (a braced list would copy them)
  args.reserve(2);
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return prim("mul", std::move(args));
}
Term zero(int d) {
  std::vector<Term> zs;
  for (int i = 0; i < d; ++i)
    zs.push_back(num(0));
  return tuple(zs);
}
Term with_pos(const Term& t, SourcePos pos) {
  return make([&](Node& n) {
    n = *t;
    n.pos = pos;
  });
}
Term rebuild(const Node& n, std::vector<Term> kids) {
  return make([&](Node& m) {
    m.kind = n.kind;
    // the fields of n's tag only: the constructors above leave the others empty (a rebuilt
    // application no longer copies three empty names and two empty binder types)
    if (n.kind == Kind::var || n.kind == Kind::prim) m.name = n.name;
    m.value = n.value;
    if (binds_names(n.kind)) m.x = n.x;
    if (n.kind == Kind::let_pair) m.y = n.y;
    m.kids = std::move(kids);
    m.pos = n.pos;
  });
}
Term rebuild_counted(const Node& n, std::vector<Term> kids) {
  Term out = rebuild(n, std::move(kids));
  out->bound_count = n.bound_count;
  return out;
}
Binder exp_binder(std::string name, Type type) {
  return Binder{std::move(name), std::move(type), false};
}
Binder lin_binder(std::string name) {
  return Binder{std::move(name), real_type(), true};
}

// ---- observations ----

bool is_value(const Term& t) {
  force(*t);
  switch (t->kind) {
  case Kind::var:
  case Kind::num:
  case Kind::lam:
    return true;
  case Kind::pair:
    return is_value(t->left()) && is_value(t->right());
  default:
    return false;
  }
}
int free_count(const std::string& x, const Term& t) {
  if (t->kind == Kind::var) return t->name == x ? 1 : 0;
  const auto& m = t->free_counts();
  const auto it = std::lower_bound(
      m.begin(), m.end(), std::string_view(x),
      [](const auto& e, std::string_view v) { return compare_names(e.first, v) < 0; });
  return it != m.end() && it->first == x ? it->second : 0;
}
int binder_count(const Node& n, int which) {
  int& known = n.bound_count[static_cast<std::size_t>(which)];
  if (known >= 0) return known;
  force(n);
  known = free_count(which == 0 ? n.x.name : n.y.name, n.body());
  return known;
}

namespace {
// A walk of t in scope order (shared copies forced): at a binder its bound term first (outside the
// binders' scope), then state = enter(n), its body, leave(n, state); at a variable at_var(n).
template <class AtVar, class Enter, class Leave>
void walk_scopes(const Term& t, const AtVar& at_var, const Enter& enter, const Leave& leave) {
  const auto walk = [&](const auto& self, const Node& n) -> void {
    force(n);
    if (n.kind == Kind::var) {
      at_var(n);
      return;
    }
    const bool binds = n.kind == Kind::lam || n.kind == Kind::let || n.kind == Kind::let_pair;
    if (!binds) {
      for (const Term& k : n.kids)
        self(self, *k);
      return;
    }
    if (n.kind != Kind::lam) self(self, *n.bound());
    const auto state = enter(n);
    self(self, *n.body());
    leave(n, state);
  };
  on_stack_for(t, [&] { walk(walk, *t); });
}
} // namespace

void count_binders(const Term& t) {
  // The occurrences seen so far by name; a binder's count is what its body added, which its
  // scope then takes back (they are bound there, not free outside).
  std::unordered_map<std::string_view, int> seen;
  walk_scopes(
      t, [&](const Node& v) { ++seen[v.name]; },
      [&](const Node& n) {
        std::array<int, 2> before{};
        before[0] = seen[n.x.name];
        if (n.kind == Kind::let_pair) before[1] = seen[n.y.name];
        return before;
      },
      [&](const Node& n, const std::array<int, 2>& before) {
        for (std::size_t b = n.kind == Kind::let_pair ? 2 : 1; b-- > 0;) {
          int& now = seen[b == 0 ? n.x.name : n.y.name];
          n.bound_count[b] = now - before[b];
          now = before[b];
        }
      });
}

bool binders_unique(const Term& t) {
  // Binders as their name and the interval of their scope's variables (the body's), variables as
  // their name in walk order: a variable is bound by the one binder of its name iff it lies in
  // that binder's interval. Sorted vectors, no hashing, no free-variable list made.
  struct Scope {
    std::string_view name;
    std::size_t begin = 0, end = 0;
  };
  std::vector<Scope> binders;
  std::vector<std::string_view> vars;
  const auto nodes = static_cast<std::size_t>(t->size);
  binders.reserve(nodes);
  vars.reserve(nodes);
  walk_scopes(
      t, [&](const Node& v) { vars.push_back(v.name); }, [&](const Node&) { return vars.size(); },
      [&](const Node& n, std::size_t begin) {
        binders.push_back({n.x.name, begin, vars.size()});
        if (n.kind == Kind::let_pair) binders.push_back({n.y.name, begin, vars.size()});
      });
  const auto by_name = [](const Scope& a, const Scope& b) {
    return compare_names(a.name, b.name) < 0;
  };
  std::sort(binders.begin(), binders.end(), by_name);
  for (std::size_t i = 1; i < binders.size(); ++i)
    if (compare_names(binders[i - 1].name, binders[i].name) == 0) return false;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const auto it = std::lower_bound(
        binders.begin(), binders.end(), vars[i],
        [](const Scope& b, std::string_view v) { return compare_names(b.name, v) < 0; });
    if (it != binders.end() && (i < it->begin || i >= it->end) &&
        compare_names(it->name, vars[i]) == 0)
      return false; // free here, and bound elsewhere: that binder would be renamed
  }
  return true;
}

bool occurs_free(const std::string& x, const Term& t) {
  return free_count(x, t) > 0;
}
std::set<std::string> free_variables(const Term& t) {
  if (t->kind == Kind::var) return {t->name};
  std::set<std::string> out;
  for (const auto& [v, c] : t->free_counts())
    out.insert(std::string(v));
  return out;
}
void binder_names(const Term& t, std::set<std::string>& out) {
  if (t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::let_pair)
    out.insert(t->x.name);
  if (t->kind == Kind::let_pair) out.insert(t->y.name);
  for (const Term& k : t->kids)
    binder_names(k, out);
}
void all_names(const Term& t, std::set<std::string>& out) { // one walk (binder_names is one too)
  if (t->kind == Kind::var) out.insert(t->name);
  if (t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::let_pair)
    out.insert(t->x.name);
  if (t->kind == Kind::let_pair) out.insert(t->y.name);
  for (const Term& k : t->kids)
    all_names(k, out);
}
long size_of(const Term& t) {
  long n = 1;
  for (const Term& k : t->kids)
    n += size_of(k);
  return n;
}
long weighted_size(const Term& t) {
  long n = t->kind == Kind::var ? 2 : 1;
  for (const Term& k : t->kids)
    n += weighted_size(k);
  return n;
}
long pair_count(const Term& t) {
  long n = t->kind == Kind::pair ? 1 : 0;
  for (const Term& k : t->kids)
    n += pair_count(k);
  return n;
}
int depth_of(const Term& t) {
  int d = 0;
  for (const Term& k : t->kids)
    d = std::max(d, depth_of(k));
  return d + 1;
}

namespace {
void key_into(const Term& t, std::vector<std::string>& scope, std::string& out) {
  const auto bind = [&](const std::string& name) { scope.push_back(name); };
  switch (t->kind) {
  case Kind::var: {
    for (std::size_t i = scope.size(); i-- > 0;)
      if (scope[i] == t->name) {
        out += "#" + std::to_string(i);
        return;
      }
    out += "$" + t->name;
    return;
  }
  case Kind::num:
    out += fmt::format("{}", t->value);
    return;
  case Kind::lam:
    out += t->x.linear ? "(\\l " : "(\\ ";
    bind(t->x.name);
    key_into(t->body(), scope, out);
    scope.pop_back();
    out += ")";
    return;
  case Kind::let:
  case Kind::let_pair: {
    out += t->kind == Kind::let ? (t->x.linear ? "(letl " : "(let ") : "(letp ";
    key_into(t->bound(), scope, out);
    out += " ";
    bind(t->x.name);
    if (t->kind == Kind::let_pair) bind(t->y.name);
    key_into(t->body(), scope, out);
    scope.pop_back();
    if (t->kind == Kind::let_pair) scope.pop_back();
    out += ")";
    return;
  }
  default:
    out += "(" + std::to_string(static_cast<int>(t->kind)) + t->name;
    for (const Term& k : t->kids) {
      out += " ";
      key_into(k, scope, out);
    }
    out += ")";
  }
}
} // namespace

std::string alpha_key(const Term& t) {
  std::vector<std::string> scope;
  std::string out;
  key_into(t, scope, out);
  return out;
}
bool is_numeral_tuple(const Term& t) {
  if (t->kind == Kind::num) return true;
  return t->kind == Kind::pair && is_numeral_tuple(t->left()) && is_numeral_tuple(t->right());
}
std::vector<double> numeral_reals(const Term& t) {
  if (t->kind == Kind::num) return {t->value};
  std::vector<double> out;
  if (t->kind != Kind::pair) return out;
  for (const Term& k : t->kids) {
    const auto part = numeral_reals(k);
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

namespace {
void subterms(const Term& t, const Plug& plug,
              const std::function<bool(const Term&, const Plug&)>& visit) {
  if (!visit(t, plug)) return;
  for (std::size_t i = 0; i < t->kids.size(); ++i)
    subterms(
        t->kids[i],
        [&, i](const Term& r) {
          std::vector<Term> kids = t->kids;
          kids[i] = r;
          return plug(rebuild(*t, std::move(kids)));
        },
        visit);
}
} // namespace

void for_each_subterm(const Term& t, const std::function<bool(const Term&, const Plug&)>& visit) {
  subterms(
      t, [](const Term& r) { return r; }, visit);
}

// ---- names ----

Names::Names(const Term& t) {
  // a term has about one name for every two nodes: the table is not rehashed as it fills
  used_.reserve(static_cast<std::size_t>(t->size / 2 + 1));
  std::vector<const Node*> todo{t.get()};
  while (!todo.empty()) {
    const Node& at = *todo.back();
    todo.pop_back();
    const auto take_number = [&](const std::string& name) {
      if (const auto n = take(name)) numbered_.push_back(*n);
    };
    if (at.kind == Kind::var) take_number(at.name);
    if (at.kind == Kind::lam || at.kind == Kind::let || at.kind == Kind::let_pair)
      take_number(at.x.name);
    if (at.kind == Kind::let_pair) take_number(at.y.name);
    for (const Term& k : at.kids)
      todo.push_back(k.get());
  }
  std::sort(numbered_.begin(), numbered_.end());
  numbered_.erase(std::unique(numbered_.begin(), numbered_.end()), numbered_.end());
}

Names::Names(const std::vector<std::string>& names) {
  used_.reserve(names.size());
  for (const std::string& name : names)
    if (const auto n = take(name)) numbered_.push_back(*n);
  std::sort(numbered_.begin(), numbered_.end());
  numbered_.erase(std::unique(numbered_.begin(), numbered_.end()), numbered_.end());
}

Names::Names(const NameTable& names) : used_(names) {
  for (const std::string& name : names.names())
    if (const auto n = number_of(name)) numbered_.push_back(*n);
  std::sort(numbered_.begin(), numbered_.end());
  numbered_.erase(std::unique(numbered_.begin(), numbered_.end()), numbered_.end());
}

std::optional<long> Names::take(const std::string& name) {
  const std::size_t before = used_.size();
  if (used_.intern(name) < static_cast<int>(before)) return std::nullopt; // taken already
  return number_of(name);
}

std::optional<long> Names::number_of(const std::string& name) {
  const auto cut = name.rfind('_');
  if (cut == std::string::npos || cut + 1 >= name.size()) return std::nullopt;
  long n = 0;
  const char* end = name.data() + name.size();
  const auto [at, error] = std::from_chars(name.data() + cut + 1, end, n);
  if (error == std::errc{} && at == end) return n;
  return std::nullopt;
}

void Names::reserve(const std::string& name) {
  const auto n = take(name);
  if (!n) return;
  const auto at = std::lower_bound(numbered_.begin(), numbered_.end(), *n);
  if (at == numbered_.end() || *at != *n) numbered_.insert(at, *n);
}

std::string drawn_name(const std::string& base, long number) {
  const auto cut = base.find('_');
  const std::size_t stem = cut != std::string::npos && cut > 0 ? cut : base.size();
  std::array<char, 24> digits{}; // written in place: no stem, suffix or sum made aside
  char* const end = std::to_chars(digits.data(), digits.data() + digits.size(), number).ptr;
  std::string out;
  out.reserve(stem + 1 + static_cast<std::size_t>(end - digits.data()));
  out.append(base, 0, stem);
  out += '_';
  out.append(digits.data(), end);
  return out;
}

std::optional<long> Names::reserve_block(long count) {
  const auto next = std::upper_bound(numbered_.begin(), numbered_.end(), counter_);
  if (next != numbered_.end() && *next <= counter_ + count) return std::nullopt;
  const long base = counter_;
  counter_ += count;
  return base;
}

std::string Names::fresh(const std::string& base) {
  // A drawn name is not added to used_: it ends in '_' and the counter, which only grows, so no
  // other draw equals it. used_ keeps the names taken before, and a run that renames Θ(n²)
  // binders (rule (9)'s copies) no longer grows it.
  for (;;) {
    std::string candidate = drawn_name(base, ++counter_);
    if (!number_taken(counter_) || !used_.contains(candidate)) return candidate;
  }
}

std::vector<std::string> fresh_names(const Term& t, std::string_view stem, std::size_t count) {
  // a draw is stem, '_' and the next number, written without leading zeros, skipped while t
  // takes that name (Names::fresh): the numbers of t's names of that form are all it needs
  std::vector<long> taken;
  const auto take = [&](const std::string& name) {
    if (name.size() <= stem.size() + 1 || name[stem.size()] != '_' ||
        name[stem.size() + 1] == '0' || !name.starts_with(stem))
      return;
    long n = 0;
    const char* end = name.data() + name.size();
    const auto [at, error] = std::from_chars(name.data() + stem.size() + 1, end, n);
    if (error == std::errc{} && at == end) taken.push_back(n);
  };
  std::vector<const Node*> todo{t.get()};
  while (!todo.empty()) {
    const Node& at = *todo.back();
    todo.pop_back();
    if (at.kind == Kind::var) take(at.name);
    if (at.kind == Kind::lam || at.kind == Kind::let || at.kind == Kind::let_pair) take(at.x.name);
    if (at.kind == Kind::let_pair) take(at.y.name);
    for (const Term& k : at.kids)
      todo.push_back(k.get());
  }
  std::sort(taken.begin(), taken.end());
  std::vector<std::string> out;
  for (long n = 1; out.size() < count; ++n)
    if (!std::binary_search(taken.begin(), taken.end(), n))
      out.push_back(std::string(stem) + "_" + std::to_string(n));
  return out;
}

namespace {
// The renaming walk of rename_bound (every binder gets a fresh name) and make_binders_unique
// (only a binder whose name is `seen`: bound before or free). The renaming is a hash map keyed by
// the original binder names (views into `t`, alive during the walk), and each node is built once.
// Names are drawn in the order the traces print them: an ES's bound term, then x, then y, then
// the body.
struct FreshWalk {
  std::unordered_map<std::string_view, std::string>& env;
  Names& names;
  const BinderHook& on_binder;
  std::unordered_set<std::string>* seen = nullptr; // null: every binder is renamed
  // a copied value (rule (9)) can be deeper than any input: an error, not a stack overflow
  DepthBudget depth{max_nesting, 0, ErrorKind::eval};
};

// The binders and children fresh_walk gives a node.
struct Walked {
  Binder x, y;
  std::vector<Term> kids;
};

void fresh_binders(const Term& t, FreshWalk& w, Walked& out);

Term fresh_walk(const Term& t, FreshWalk& w) {
  const DepthGuard guard(w.depth, t->pos);
  force(*t);
  switch (t->kind) {
  case Kind::var: {
    const auto it = w.env.find(t->name);
    return it == w.env.end() || it->second == t->name ? t : var(it->second);
  }
  case Kind::num:
    return t;
  default:
    break;
  }
  const bool binder = t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::let_pair;
  Walked out;
  out.kids.reserve(t->kids.size());
  if (binder) {
    fresh_binders(t, w, out);
  } else {
    for (const Term& k : t->kids)
      out.kids.push_back(fresh_walk(k, w));
  }
  // make_binders_unique keeps a node whose binders and children stay its own (as typecheck does):
  // an input with unique binders is walked, not copied
  const auto same = [](const Term& a, const Term& b) { return a.get() == b.get(); };
  if (w.seen &&
      std::equal(t->kids.begin(), t->kids.end(), out.kids.begin(), out.kids.end(), same) &&
      (!binder || out.x.name == t->x.name) &&
      (t->kind != Kind::let_pair || out.y.name == t->y.name))
    return t;
  return make([&](Node& n) {
    n.kind = t->kind;
    n.name = t->name;
    n.value = t->value;
    n.x = binder ? std::move(out.x) : t->x;
    n.y = t->kind == Kind::let_pair ? std::move(out.y) : t->y;
    n.pos = t->pos;
    n.bound_count = t->bound_count; // its binders renamed alike: as often in the body
    n.kids = std::move(out.kids);
  });
}

// fresh_walk at a binder: the renamed binders and the children.
void fresh_binders(const Term& t, FreshWalk& w, Walked& out) {
  // the bound term of an ES is outside the binder's scope
  Term bound;
  if (t->kind != Kind::lam) bound = fresh_walk(t->bound(), w);
  using Saved = std::pair<std::string_view, std::optional<std::string>>;
  std::array<Saved, 2> saved;
  std::size_t bound_names = 0;
  const auto bind = [&](const Binder& from, Binder& to) {
    std::string target = from.name;
    if (!w.seen || w.seen->count(target) > 0) target = w.names.fresh(target);
    if (w.seen) w.seen->insert(target);
    to = Binder{std::move(target), from.type, from.linear};
    const auto [it, fresh] = w.env.try_emplace(from.name, to.name);
    saved[bound_names++] = {from.name, fresh ? std::nullopt : std::optional(it->second)};
    if (!fresh) it->second = to.name;
    if (w.on_binder) w.on_binder(to);
  };
  bind(t->x, out.x);
  if (t->kind == Kind::let_pair) bind(t->y, out.y);
  out.kids.push_back(fresh_walk(t->body(), w));
  while (bound_names > 0) {
    const auto& [name, before] = saved[--bound_names];
    if (before)
      w.env[name] = *before;
    else
      w.env.erase(name);
  }
  if (bound) out.kids.push_back(std::move(bound));
}
} // namespace

Term rename_bound(const Term& t, Names& names, const BinderHook& on_binder) {
  RenameScratch scratch;
  return rename_bound(t, names, on_binder, scratch);
}

Term rename_bound(const Term& t, Names& names, const BinderHook& on_binder,
                  RenameScratch& scratch) {
  // a walk that threw (depth guard) left its scopes in the map: their keys view its term
  if (!scratch.env.empty()) scratch.env.clear();
  return on_stack_for(t, [&] {
    FreshWalk w{scratch.env, names, on_binder};
    return fresh_walk(t, w);
  });
}

Term make_binders_unique(const Term& t, Names& names) {
  return on_stack_for(t, [&] { // free_variables recurses too (the children's lists first)
    const std::set<std::string> free = free_variables(t);
    std::unordered_set<std::string> seen(free.begin(), free.end());
    const BinderHook none;
    RenameScratch scratch;
    FreshWalk w{scratch.env, names, none, &seen};
    return fresh_walk(t, w);
  });
}

Term substitute(const Term& t, const std::string& x, const Term& v) {
  if (!occurs_free(x, t)) return t;
  if (t->kind == Kind::var) return v;
  force(*t);
  std::vector<Term> kids;
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const bool under =
        (t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::let_pair) && i == 0;
    if (under && (t->x.name == x || (t->kind == Kind::let_pair && t->y.name == x)))
      kids.push_back(t->kids[i]);
    else
      kids.push_back(substitute(t->kids[i], x, v));
  }
  return rebuild(*t, std::move(kids));
}

namespace {
// `to` maps a name to its new variable node, shared by every occurrence (as substitute shares v)
Term rename_free_in(const Term& t, const std::map<std::string, Term>& to) {
  force(*t);
  if (t->kind == Kind::var) {
    const auto it = to.find(t->name);
    return it == to.end() ? t : it->second;
  }
  const bool binder = t->kind == Kind::lam || t->kind == Kind::let || t->kind == Kind::let_pair;
  std::vector<Term> kids;
  kids.reserve(t->kids.size());
  bool changed = false;
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const bool shadows =
        binder && i == 0 &&
        (to.contains(t->x.name) || (t->kind == Kind::let_pair && to.contains(t->y.name)));
    Term k;
    if (shadows) { // the binder's names are not free in its body (a parsed term has none)
      std::map<std::string, Term> inner = to;
      inner.erase(t->x.name);
      if (t->kind == Kind::let_pair) inner.erase(t->y.name);
      k = rename_free_in(t->kids[i], inner);
    } else {
      k = rename_free_in(t->kids[i], to);
    }
    changed = changed || k != t->kids[i];
    kids.push_back(std::move(k));
  }
  return changed ? rebuild(*t, std::move(kids)) : t;
}
} // namespace

Term rename_free(const Term& t, const std::map<std::string, std::string>& to) {
  std::map<std::string, Term> vars;
  for (const auto& [from, name] : to)
    vars.emplace(from, var(name));
  return vars.empty() ? t : on_stack_for(t, [&] { return rename_free_in(t, vars); });
}

} // namespace adsem::linear_negation
