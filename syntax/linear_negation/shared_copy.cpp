// Rule (9)'s copy of a value, shared instead of built (seed 002, Table 2a, rule (9); ast.hpp,
// Suspension): a copied node names its own binders when it is made and makes its children when
// they are first read, so a copy costs what the reduction reads of it, not |v|. The names are
// those rename_bound draws: a block of numbers per copy, in its walk order (an ES's bound term,
// then its binders, then its body).
#include <algorithm>
#include <array>
#include <charconv>
#include <span>
#include <string>
#include <vector>

#include "syntax/core/inline_vector.hpp"
#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/nesting.hpp"

namespace adsem::linear_negation {

namespace {

const std::string* renamed(const Renaming& env, std::string_view x) {
  return renamed_in(env, x);
}

void bind(Renaming& env, const std::string& from, const std::string& to) {
  const auto it = std::lower_bound(env.begin(), env.end(), from,
                                   [](const auto& e, const std::string& n) { return e.first < n; });
  if (it != env.end() && it->first == from)
    it->second = to; // shadowing: the inner binder wins
  else
    env.emplace(it, from, to);
}

using Numbers = SharedNode<const std::vector<long>>;

// The number of the p-th binder of a copy (Suspension::numbers).
long number_of(const Numbers& numbers, long p) {
  return numbers ? (*numbers)[static_cast<std::size_t>(p - 1)] : p;
}

Binder renamed_binder(const Binder& b, long number, BinderLog& log) {
  Binder out{drawn_name(b.name, number), b.type, b.linear};
  log.named(out, number);
  return out;
}

// A subterm of at most this many nodes is copied whole at once: nearly every node a shared copy
// makes is read (forced) later on the RNN family, and a small subterm built whole costs less than
// a suspension per node, each forced in its turn.
constexpr long built_whole = 16;

// A child's free-variable list of at most this many names is scanned for the names a copy
// renames (copied_kids); a longer one is searched for each of them.
constexpr std::size_t scanned_list = 16;

// A child of at least this many nodes whose list is not made has its renaming's counts read off
// its parent's (copied_kids): below it, its list is small and made at once.
constexpr long derived_from = 64;

// The free occurrences of each name a copy renames (Suspension::counts); null: not known.
using Counts = InlineVector<int, 4>;

// The filter of names (Node::names_seen) of a copied node, from its children's: a copy's own
// binders are renamed, so its original's filter does not hold, but its children's do (a child
// still unforced passes every name). Exact where they are, it lets (9)'s descent skip a copied
// sibling of its path by its filter instead of walking it.
NameFilter names_in(const std::vector<Term>& kids) {
  NameFilter seen = 0;
  for (const Term& k : kids)
    seen |= k->names_seen;
  return seen;
}

std::vector<Term> copied_kids(const Node& o, const Node& n, long base, const Renaming& env,
                              const Counts* counts, const SharedNode<BinderLog>& log,
                              const Numbers& numbers, bool* spine = nullptr);

// What a copy n of o keeps of o's fields (its binders are named and its children made apart).
[[gnu::always_inline]] inline void copy_fields(Node& n, const Node& o) {
  n.kind = o.kind;
  n.name = o.name;
  n.value = o.value;
  n.pos = o.pos;
  n.height = o.height;
  n.size = o.size;
  n.binders = o.binders;
  n.plain_stems = o.plain_stems;
  n.names_seen = ~NameFilter{0}; // renamed: any name may occur
  n.bound_count = o.bound_count; // its binders renamed alike
}

// The copy of c whose binders are numbered base + 1, …, its free names renamed by env (only
// names free in c): c itself when nothing in it is renamed, a new variable, or a new node (built
// whole when small and whole_if_small, else shared: its children made when forced).
Term copy_of(const Term& c, long base, Renaming env, const Counts* counts,
             const SharedNode<BinderLog>& log, const Numbers& numbers, bool whole_if_small) {
  if (c->kind == Kind::var) {
    const std::string* to = renamed(env, c->name);
    return to && *to != c->name ? var(*to) : c;
  }
  if (c->kind == Kind::num || (env.empty() && c->binders == 0)) return c;
  Term original = c;
  if (c->copy.unforced) { // a copy of a copy renames the first copy's original at once
    const Suspension& s = *c->copy.from;
    original = s.original;
    Renaming composed;
    for (const auto& [from, to] : s.env) {
      const std::string* again = renamed(env, to);
      composed.emplace_back(from, again ? *again : to);
    }
    for (const auto& [from, to] : env) { // free in c and not renamed by the first copy
      const std::string& name = from;    // a structured binding is not captured (clang 14)
      if (std::none_of(s.env.begin(), s.env.end(), [&](const auto& e) { return e.second == name; }))
        bind(composed, from, to);
    }
    env = std::move(composed);
    counts = nullptr; // the composed renaming's names are not the ones counted
  }
  const Node& o = *original;
  // made in its place (a Node moved into make_shared was built, copied and destroyed)
  const auto made = make_shared_node<Node>();
  Node& n = *made;
  copy_fields(n, o);
  if (o.kind == Kind::lam) n.x = renamed_binder(o.x, number_of(numbers, base + 1), *log);
  if (o.kind == Kind::let || o.kind == Kind::let_pair) {
    const long before = base + o.bound()->binders; // the bound term is walked first
    n.x = renamed_binder(o.x, number_of(numbers, before + 1), *log);
    if (o.kind == Kind::let_pair) n.y = renamed_binder(o.y, number_of(numbers, before + 2), *log);
  }
  if (whole_if_small && !c->copy.unforced && o.size <= built_whole) {
    // The reducer's summaries are its original's, as a shared copy's are (Reducer::summary_made):
    // the same redexes, renamed alike.
    n.memo.top = o.memo.top;
    n.memo.in_sum = o.memo.in_sum;
    n.kids = copied_kids(o, n, base, env, counts, log, numbers);
    n.names_seen = names_in(n.kids);
    return made;
  }
  const auto s = make_shared_node<Suspension>(); // filled in place, not moved from a temporary
  s->original = std::move(original);
  s->base = base;
  s->env = std::move(env);
  if (counts != nullptr && !counts->empty()) s->counts = *counts;
  s->log = log;
  s->numbers = numbers;
  n.copy.from = s;
  n.copy.unforced = true;
  return made;
}

// The binders of a copied node bound for a child: (original name, copy's name).
using Bound = std::pair<const std::string*, const std::string*>;

// The entries of env and of the binders bound whose name is free in o's largest child i, whose
// list is not made, with their counts read off o's (counts, else o's list) less its siblings' (the
// binders' from o's binder counts), as (9)'s descent counts (counts_in_kids): a long sum copied by
// (9) is forced a level at a time, and the lists of its spine, k levels of up to k names, were
// made for this alone. False where o's counts are not known, a binder count is not kept, or o
// binds a name env renames. Out of copied_kids, whose other children it leaves as they were.
[[gnu::noinline]] bool derived_renaming(const Node& o, std::size_t i, const Renaming& env,
                                        const Counts* counts, std::span<const Bound> binders,
                                        Renaming& restricted, Counts& in_k) {
  const Node& k = *o.kids[i];
  // (an empty renaming has nothing to count)
  if (counts == nullptr && !env.empty() && !o.free_counts_known()) return false;
  for (std::size_t j = 0; j < o.kids.size(); ++j)
    if (o.kids[j]->size > k.size) return false;
  const bool binds = o.kind == Kind::lam || o.kind == Kind::let || o.kind == Kind::let_pair;
  if (binds && (renamed(env, o.x.name) != nullptr ||
                (o.kind == Kind::let_pair && renamed(env, o.y.name) != nullptr)))
    return false;
  for (std::size_t b = 0; b < binders.size(); ++b)
    if (o.bound_count[b] < 0) return false;
  const auto count_in = [](const Node& s, std::string_view y) {
    if (!may_name(s, name_bits(y))) return 0;
    if (s.kind == Kind::var) return s.name == y ? 1 : 0;
    FreeEntry single;
    const std::span<const FreeEntry> free = free_counts_of(s, single);
    const auto before = [](const FreeEntry& e, std::string_view v) {
      return compare_names(e.first, v) < 0;
    };
    int c = 0; // every entry of y (an unforced copy's list may name it twice)
    for (auto e = std::lower_bound(free.begin(), free.end(), y, before);
         e != free.end() && e->first == y; ++e)
      c += e->second;
    return c;
  };
  struct Entry {
    const std::string* from = nullptr;
    const std::string* to = nullptr;
    int count = 0;
  };
  InlineVector<Entry, 4> entries;
  for (std::size_t e = 0; e < env.size(); ++e) {
    int c = counts ? (*counts)[e] : count_in(o, env[e].first);
    for (std::size_t j = 0; j < o.kids.size(); ++j)
      if (j != i) c -= count_in(*o.kids[j], env[e].first);
    if (c < 0) return false;
    if (c > 0) entries.push_back({&env[e].first, &env[e].second, c});
  }
  for (std::size_t b = 0; b < binders.size(); ++b)
    if (o.bound_count[b] > 0)
      entries.push_back({binders[b].first, binders[b].second, o.bound_count[b]});
  if (!binders.empty())
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return compare_names(*a.from, *b.from) < 0; });
  restricted.reserve(entries.size());
  in_k.reserve(entries.size());
  for (const Entry& e : entries) {
    restricted.emplace_back(*e.from, *e.to);
    in_k.push_back(e.count);
  }
  return true;
}

// The copy of the sum c (not itself an unforced copy) forced down its spine, as forcing it and
// each sum below would make it: env may rename names c lacks (a sum binds none, so its children's
// renamings are read off env as well as off a restricted one). Where env renames no name free in
// c and c binds nothing, c itself, as copy_of answers for the renaming restricted to c, empty:
// then each child is its original too (copy_of's answer for it), and no variable child is
// renamed, even to itself.
Term sum_copied(const Term& c, long base, const Renaming& env, const SharedNode<BinderLog>& log,
                const Numbers& numbers) {
  const Node& o = *c;
  const auto made = make_shared_node<Node>();
  Node& n = *made;
  copy_fields(n, o);
  bool renamed_var = false;
  n.kids = copied_kids(o, n, base, env, nullptr, log, numbers, &renamed_var);
  if (o.binders == 0 && !renamed_var && n.kids == o.kids) return c;
  n.names_seen = names_in(n.kids);
  // its summaries are its original's, as a forced or built copy's are (force, copy_of)
  n.memo.top = o.memo.top;
  n.memo.in_sum = o.memo.in_sum;
  return made;
}

// The children of n, the copy of o whose own binders are named: each the copy of o's child, its
// binders numbered from base on in the walk order, env renaming the names free in o. With spine
// (o a sum): a child that is a sum too is made forced at once, down its own spine (sum_copied),
// and *spine is set where a variable child is renamed.
std::vector<Term> copied_kids(const Node& o, const Node& n, long base, const Renaming& env,
                              const Counts* counts, const SharedNode<BinderLog>& log,
                              const Numbers& numbers, bool* spine) {
  std::vector<Term> kids(o.kids.size());
  long at = base;
  // The copy's binders, which rename o's in its body: env with them bound, but only the entries
  // a child needs are built (no copy of env per binder).
  std::array<Bound, 2> binders{};
  std::size_t bound = 0;
  const auto renamed_under = [&](std::string_view x) -> const std::string* {
    for (std::size_t b = bound; b-- > 0;) // the last bound wins, as bind() overwrites
      if (*binders[b].first == x) return binders[b].second;
    return renamed(env, x);
  };
  // The entries of env (the binders bound) whose name is free in k, the only ones its copy
  // needs, in the order of k's free-variable list (the order of env, compare_names). Where k's
  // list is much longer than the renaming, each renamed name is looked up in it instead of the
  // list being scanned: the spine of a long sum copied by (9) lists O(n) names at each node and
  // renames one (the copied λ's binder), so a scan made forcing the copy Θ(n²).
  const auto restricted_to = [&](const Node& k) {
    Renaming restricted;
    FreeEntry single;
    const std::span<const FreeEntry> free = free_counts_of(k, single);
    if (free.size() <= scanned_list || free.size() <= 4 * (env.size() + bound)) {
      for (const FreeEntry& f : free)
        if (const std::string* to = renamed_under(f.first)) restricted.emplace_back(f.first, *to);
      return restricted;
    }
    std::vector<std::string_view> names; // env's names and the binders', in compare_names order
    names.reserve(env.size() + bound);
    for (const auto& e : env)
      names.emplace_back(e.first);
    for (std::size_t b = 0; b < bound; ++b)
      names.emplace_back(*binders[b].first);
    const auto before = [](std::string_view a, std::string_view b) {
      return compare_names(a, b) < 0;
    };
    std::sort(names.begin(), names.end(), before);
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const std::string_view name : names) {
      const auto at = std::lower_bound(
          free.begin(), free.end(), name,
          [](const FreeEntry& e, std::string_view v) { return compare_names(e.first, v) < 0; });
      for (auto e = at; e != free.end() && e->first == name; ++e) // as often as the scan
        restricted.emplace_back(e->first, *renamed_under(name));
    }
    return restricted;
  };
  const auto make_kid = [&](std::size_t i) {
    const Term& k = o.kids[i];
    if (k->kind == Kind::var) { // copy_of's answer, read off the renaming at once
      const std::string* to = renamed_under(k->name);
      if (spine && to) *spine = true;
      kids[i] = to && *to != k->name ? var(*to) : k;
      return;
    }
    if (k->kind == Kind::num) {
      kids[i] = k;
      return;
    }
    if (spine && k->kind == Kind::add && !k->copy.unforced) {
      kids[i] = sum_copied(k, at, env, log, numbers);
      at += k->binders;
      return;
    }
    if (k->size >= derived_from && !k->free_counts_known()) {
      Renaming restricted;
      Counts in_k;
      if (derived_renaming(o, i, env, counts, {binders.data(), bound}, restricted, in_k)) {
        kids[i] = copy_of(k, at, std::move(restricted), &in_k, log, numbers, true);
        at += k->binders;
        return;
      }
    }
    kids[i] = copy_of(k, at, restricted_to(*k), nullptr, log, numbers, true);
    at += k->binders;
  };
  switch (o.kind) {
  case Kind::lam:
    ++at;
    binders[bound++] = {&o.x.name, &n.x.name};
    make_kid(0);
    break;
  case Kind::let:
  case Kind::let_pair:
    make_kid(1); // the bound term is outside the binders' scope
    binders[bound++] = {&o.x.name, &n.x.name};
    ++at;
    if (o.kind == Kind::let_pair) {
      binders[bound++] = {&o.y.name, &n.y.name};
      ++at;
    }
    make_kid(0);
    break;
  default:
    for (std::size_t i = 0; i < kids.size(); ++i)
      make_kid(i);
  }
  return kids;
}

void force_all_below(const Term& t) {
  force(*t);
  for (const Term& k : t->kids)
    force_all_below(k);
}

} // namespace

namespace {
// force, and with spine (n a sum) every sum below n down its spine at once (sum_copied)
void force_copy(const Node& n, bool spine) {
  if (!n.copy.unforced) return;
  const Suspension& s = *n.copy.from;
  Node& m = const_cast<Node&>(n); // made non-const (ast.cpp); only its children change
  bool renamed_var = false;       // (not asked: n is made whatever its children)
  m.kids = copied_kids(*s.original, n, s.base, s.env, s.counts.empty() ? nullptr : &s.counts, s.log,
                       s.numbers, spine ? &renamed_var : nullptr);
  m.copy.unforced = false;
  m.names_seen = names_in(m.kids);
  // Its summaries are its original's, as an unforced copy's are (Reducer::summary_made): the same
  // redexes, renamed alike, and nothing at or below a held original is written in place. Made
  // anew, they forced the copy's children to read their side conditions, and those theirs: the
  // whole copy, level by level (the long-range let series' choice).
  if (m.memo.top.owner == 0) m.memo.top = s.original->memo.top;
  if (m.memo.in_sum.owner == 0) m.memo.in_sum = s.original->memo.in_sum;
  // The original is let go (a forced copy held every value it was copied from: 11 times the peak
  // memory on the RNN family). The free-count lists computed while unforced view the names the
  // suspension keeps (free_names), not the original's.
  m.copy.from->original.reset();
  m.copy.from->log.reset();
  m.copy.from->numbers.reset();
  m.copy.from->counts.clear();
}
} // namespace

void force(const Node& n) {
  force_copy(n, false);
}

void force_sum(const Node& n) {
  if (!n.copy.unforced) return;
  if (n.kind != Kind::add) return force_copy(n, false);
  // down the spine: on the large stack where the sum is deep (nesting.hpp)
  if (n.height <= shallow_nesting) return force_copy(n, true);
  on_large_stack([&] { force_copy(n, true); });
}

void force_all(const Term& t) {
  on_stack_for(t, [&] { force_all_below(t); });
}

Term share_copy(const Term& v, long base, const SharedNode<BinderLog>& log) {
  return copy_of(v, base, {}, nullptr, log, nullptr,
                 false); // shared at least at its root, whatever its size
}

namespace {
// Whether x occurs free in t, by a walk that skips each subtree whose filter of names lacks x and
// reads a made list, or a copy's, where there is one: (11) asks it of a copy's original, a large
// sum on the wide family whose list nothing else makes (made for this, it cost more than the walk
// of its spine, whose summands mostly lack x's bit).
bool names_free(const Term& t, const std::string& x, NameFilter bit) {
  const Node& n = *t;
  if (!may_name(n, bit)) return false;
  if (n.kind == Kind::var) return n.name == x;
  if (n.free_counts_known() || n.copy.unforced) return free_count(x, t) != 0;
  const bool binds_x = (n.kind == Kind::lam || n.kind == Kind::let || n.kind == Kind::let_pair) &&
                       (n.x.name == x || (n.kind == Kind::let_pair && n.y.name == x));
  for (std::size_t i = 0; i < n.kids.size(); ++i)
    if (!(binds_x && i == 0) && names_free(n.kids[i], x, bit)) return true;
  return false;
}
} // namespace

Term substituted_copy(const Node& t, const std::string& z, const std::string& v, int c) {
  const Suspension& s = *t.copy.from;
  const Node& o = *s.original;
  // z's free occurrences in the original (its list made where its filter of names does not answer)
  const auto in_original = [&](const std::string& x) {
    return may_name(o, name_bits(x)) ? free_count(x, s.original) : 0;
  };
  const auto v_in_original = [&] {
    return on_stack_for(s.original, [&] { return names_free(s.original, v, name_bits(v)); });
  };
  Renaming env = s.env;
  Counts counts = s.counts; // empty: not known
  int via_env = 0;          // z's occurrences in t that env renamed to z
  bool z_renamed = false;   // z free in the original is renamed to another name
  bool v_renamed = false;   // v free in the original is renamed to another name
  if (z == v) return nullptr;
  for (std::size_t i = 0; i < env.size(); ++i) {
    if (env[i].second == v) return nullptr; // v free in t already
    if (env[i].second == z) {
      env[i].second = v;
      if (!counts.empty()) via_env += counts[i];
    }
    z_renamed = z_renamed || env[i].first == z;
    v_renamed = v_renamed || env[i].first == v;
  }
  if (!v_renamed && v_in_original()) return nullptr;
  if (!z_renamed) { // z free in the original itself is renamed to v too
    const bool counted = !counts.empty() || env.empty(); // (nothing renamed: all of c)
    const int own = counted ? c - via_env : in_original(z);
    if (own > 0) {
      const auto at =
          std::lower_bound(env.begin(), env.end(), z, [](const auto& e, const std::string& n) {
            return compare_names(e.first, n) < 0;
          });
      const auto i = at - env.begin();
      env.emplace(at, z, v);
      if (counted) { // own, at z's place in env
        counts.push_back(own);
        std::rotate(counts.begin() + i, counts.end() - 1, counts.end());
      }
    }
  }
  const auto made = make_shared_node<Node>(t); // its binders, measure and counts; no summaries
  const auto suspended = make_shared_node<Suspension>();
  suspended->original = s.original;
  suspended->base = s.base;
  suspended->env = std::move(env);
  suspended->counts = std::move(counts);
  suspended->log = s.log;
  suspended->numbers = s.numbers;
  made->copy.from = suspended;
  return made;
}

namespace {
// names.fresh for each binder of t in rename_bound's order (an ES's bound term, its binders, its
// body), their numbers noted. An unforced copy's binders are its original's, whose stems they
// keep: the original is walked in its place.
void draw_numbers(const Node& t, Names& names, std::vector<long>& out) {
  // A subtree without binders draws nothing: not walked (on the wide sum, (9) copies a
  // backpropagator λa. S_k of one binder over a sum of k summands, one copy in four drawn here).
  if (t.binders == 0) return;
  const Node& o = t.copy.unforced ? *t.copy.from->original : t;
  const auto draw = [&](const Binder& b) {
    names.fresh(b.name);
    out.push_back(names.last_drawn());
  };
  switch (o.kind) {
  case Kind::var:
  case Kind::num:
    return;
  case Kind::lam:
    draw(o.x);
    draw_numbers(*o.body(), names, out);
    return;
  case Kind::let:
  case Kind::let_pair:
    draw_numbers(*o.bound(), names, out);
    draw(o.x);
    if (o.kind == Kind::let_pair) draw(o.y);
    draw_numbers(*o.body(), names, out);
    return;
  default:
    for (const Term& k : o.kids)
      draw_numbers(*k, names, out);
  }
}
} // namespace

Term share_copy_drawn(const Term& v, Names& names, const SharedNode<BinderLog>& log) {
  auto numbers = make_shared_node<std::vector<long>>();
  numbers->reserve(static_cast<std::size_t>(v->binders));
  on_stack_for(v, [&] { draw_numbers(*v, names, *numbers); });
  return copy_of(v, 0, {}, nullptr, log, numbers, false);
}

} // namespace adsem::linear_negation
