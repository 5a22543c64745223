#pragma once
// Λ⊥(F): the simply typed λ-calculus with linear negation of Brunel–Mazza–Pagani (seed 002,
// §4.1 L285-306, grammar (5),(6); spec §2). Immutable shared nodes with named binders (spec §2.8:
// Barendregt-style freshness instead of de Bruijn indices, because the micro-step rule (9) and the
// rules "at a distance" move substitution stacks around).
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "syntax/core/diagnostic.hpp"
#include "syntax/core/inline_vector.hpp"
#include "syntax/core/shared_node.hpp"
#include "syntax/linear_negation/name_table.hpp"

namespace adsem {
class Primitive; // semantics/core/primitives.hpp
} // namespace adsem

namespace adsem::linear_negation {

// ---- types (L287-293): A ::= R | A × B | A → B | R^⊥d ----
struct TypeNode;
using Type = SharedNode<const TypeNode>;
struct TypeNode {
  enum class Kind { real, product, arrow, neg };
  Kind kind = Kind::real;
  int dim = 1;      // neg: d of R^⊥d
  Type left, right; // product / arrow
};
Type real_type();
Type product_type(Type a, Type b);
Type arrow_type(Type a, Type b);
Type neg_type(int d);
Type euclidean(int d); // R^d = R × (R × …) right-nested (L310)
bool same_type(const Type& a, const Type& b);
bool is_real(const Type& t);
bool is_neg(const Type& t);
bool is_arrow(const Type& t);
bool is_product(const Type& t);
bool is_first_order(const Type& t);   // E ::= R | E × E
int euclidean_dim(const Type& t);     // of a first-order type
bool is_euclidean(const Type& t);     // right-nested R^d
bool has_neg(const Type& t);          // mentions R^⊥d (target-only)
std::string type_text(const Type& t); // surface syntax

// ---- terms ----
enum class Kind { var, num, lam, app, pair, let, let_pair, add, prim };

// A binder x^{!A} (exponential) or z^R (linear, spec §2.2). `type` may be null for an ES binder
// before elaboration (spec §2.7: ES binder types are synthesised from the content).
struct Binder {
  std::string name;
  Type type;
  bool linear = false;
};

struct Node;
using Term = SharedNode<const Node>;

// A cache slot of the reducer (semantics/linear_negation/reduction.cpp): which redex instance
// S_bp and S_lo would choose in this subtree, and how many instances S_rand draws from. `owner`
// names the reducer that filled a summary (0: none), since the choice depends on the rule book and
// the variables' types. Copying a node does not copy the memo; a shared copy takes its original's
// when it is forced (shared_copy.cpp).
struct RedexMemo {
  struct Choice {
    std::uint8_t cls = 0;    // S_bp class of the chosen instance; 0: no redex in the subtree
    std::uint8_t rule = 0;   // the entry's position in the rule book, when at this node
    std::int32_t child = -1; // the child holding it, or -1: at this node
    std::uint32_t nth = 0;   // which instance of the entry at this node
  };
  struct Summary {
    std::uint64_t owner = 0;
    Choice best, first;         // S_bp's and S_lo's choice
    Choice own_best, own_first; // the same among the instances at this node only
    std::uint32_t own = 0;      // redex instances at this node
    std::uint32_t count = 0;    // redex instances in the subtree (S_rand draws among them)
  };
  Summary top, in_sum; // in_sum: the node is a summand of a larger sum (only sums differ)

  RedexMemo() = default;
  RedexMemo(const RedexMemo&) {}
  RedexMemo& operator=(const RedexMemo&) {
    top = {};
    in_sum = {};
    return *this;
  }
};

// A copy that rule (9) shares instead of building (seed 002, Table 2a, rule (9): C{x}[x := v]
// → C{v}[x := v], the copy of v with its binders renamed apart): the node stands for
// `original` with every binder renamed to its stem and a number of a block reserved for the copy
// (base + 1, base + 2, … in the order the eager renaming draws them: an ES's bound term, its
// binders, its body), and the names free in `original` that the copy binds above this node
// renamed by `env`. Its own binders are named when it is made; its children are made, one level
// at a time, when something first reads them (force). What the eager copy would build is what a
// forced node holds, name for name.
struct BinderLog { // where the binders of a shared copy are noted as they are named
  virtual ~BinderLog() = default;
  virtual void named(const Binder& b, long number) = 0;
};
// A shared copy's renaming of the names free in its original: pairs (original name, copy's name)
// sorted by the original name (the order of compare_names).
using Renaming = std::vector<std::pair<std::string, std::string>>;
struct Suspension {
  Term original; // never itself unforced; null once forced
  long base = 0; // its binders: base + 1, …
  Renaming env;
  // The free occurrences in `original` of each name env renames (env's order), when known: forcing
  // reads the largest child's counts from what its siblings leave (shared_copy.cpp).
  InlineVector<int, 4> counts; // empty: not known (or nothing renamed); mostly one or two
  SharedNode<BinderLog> log;
  // null: the p-th binder (walk order, from 1) is numbered p; else numbers[p - 1] (a copy whose
  // numbers are no block: Names::fresh skipped a taken name, share_copy_drawn)
  SharedNode<const std::vector<long>> numbers;
  // The free names of the unforced copy, owned here: its free-count list (and its parents')
  // view them, and they outlive the original, which is let go once forced.
  std::vector<std::string> free_names;
};

// A name and its free occurrences in a node's subtree: one entry of its free-variable list. An
// aggregate of two trivially copyable members, so that a list is copied as bytes (a node of a
// stack of explicit substitutions copies its body's list of O(n) names).
struct FreeEntry {
  std::string_view first;
  int second = 0;
  bool operator==(const FreeEntry&) const = default;
};

// A superset of the names in a subtree, three bits per name (name_bits). 64 bits rather than 32: on
// the wide sum the bound terms of the stack of explicit substitutions name several of the
// series' names, and a false positive makes (9)'s descent count the sibling it could skip (its
// walks took half the instructions with 64 bits at n = 800). The node stays in its allocation
// class (432 bytes with the wider field).
using NameFilter = std::uint64_t;

struct Node {
  Kind kind = Kind::num;
  // No binder name in the subtree starts with '_' (its renamed name keeps its stem); set by
  // measure. (Beside the tag, in its padding: node_size below.)
  bool plain_stems = true;
  std::string name;             // var: the variable; prim: the primitive's table name
  double value = 0;             // num
  Binder x, y;                  // lam: x; let: x (t[x := u]); let_pair: x, y (t[⟨x,y⟩ := u])
  std::vector<Term> kids;       // lam: {body}; app: {fn, arg}; pair/add: {l, r};
                                // let/let_pair: {body, bound}; prim: args
  std::optional<SourcePos> pos; // where the parser found it (for type errors)
  // 1 + the children's largest height, set when the node is made (and by the reducer's in-place
  // step): whether a recursive walk needs the large stack (nesting.hpp) is read off here.
  int height = 1;
  long size = 1;    // |t| as a tree (spec §2.6)
  long binders = 0; // the binders of the subtree: the numbers (9)'s renaming draws for it
  // A superset of the variable names occurring in the subtree, free or bound, the bits of
  // name_bits each (set by measure; all bits in a shared copy not forced yet, which renames, and
  // its children's once forced): a name with a bit clear does not occur here, which (9)'s and
  // (11)'s descent ask of the siblings of its path.
  NameFilter names_seen = 0;
  // A shared copy whose children are not made yet (Suspension): force(*this) makes them.
  struct Pending {
    SharedNode<Suspension> from; // forced: only its env (free-count lists view its names)
    bool unforced = false;
  };
  mutable Pending copy;

  const Term& body() const { return kids.at(0); }  // lam, let, let_pair
  const Term& bound() const { return kids.at(1); } // let, let_pair
  const Term& left() const { return kids.at(0); }  // app fn, pair/add left
  const Term& right() const { return kids.at(1); } // app arg, pair/add right

  // Free-variable occurrence counts, computed once per node (nodes are immutable), sorted by
  // name. The names view the variable nodes of this subtree, which the node keeps alive. A
  // variable node has no list (empty; free_count, occurs_free and free_variables answer for it),
  // so a copied node never views a dead name.
  using FreeCounts = std::vector<FreeEntry>;
  const FreeCounts& free_counts() const;

  mutable RedexMemo memo;

  // prim: the entry of the shared primitive table named `name`, found by the numeric model at its
  // first visit of the node (semantics/linear_negation/denotation.hpp), which visits a λ's body
  // at every application: a lookup by name each time was a tenth of the model's work. Not copied
  // with the node (a copy may be given another name).
  struct PrimitiveSlot {
    const Primitive* entry = nullptr;
    PrimitiveSlot() = default;
    PrimitiveSlot(const PrimitiveSlot&) {}
    PrimitiveSlot& operator=(const PrimitiveSlot&) {
      entry = nullptr;
      return *this;
    }
  };
  mutable PrimitiveSlot primitive;

  // At a binder (lam, let, let_pair): free_count of x (index 0) and of y (1) in the body, or -1
  // when not known yet (binder_count computes it from the free-variable lists). The side
  // conditions of rules (9) and (10) (seed 002, Table 2a) ask only this count, so a reducer that
  // keeps it up to date along its steps (semantics/linear_negation/reduction.hpp, count mode)
  // no longer makes the lists of a deep stack of explicit substitutions. A copy of the node keeps
  // it only where its children stay the same (with_pos) or are renamed alike (rename_bound).
  mutable std::array<int, 2> bound_count{-1, -1};

  // Forgets what was computed from the children (free-variable counts, the reducer's summaries):
  // for the reducer's in-place step, which replaces a child of a node only it holds
  // (semantics/linear_negation/reduction.cpp). Nodes are made non-const, so that step may write.
  void forget_derived() const {
    memo = RedexMemo{};
    fv_cache_.counts.reset();
    fv_cache_.core = nullptr;
    bound_count = {-1, -1};
  }
  // The same for the free-variable counts only (and the core below, core_below): the reducer's
  // in-place step brings the summaries of a path node up to date itself when the paper's rules
  // cannot see the change below.
  void forget_free_counts() const {
    fv_cache_.counts.reset();
    fv_cache_.core = nullptr;
  }
  // Whether free_counts() is made (then reading it costs a lookup, not a merge).
  bool free_counts_known() const { return fv_cache_.counts.has_value(); }
  // At an explicit substitution: the slot holding the core under its body and the explicit
  // substitutions below it, once a reducer has found it off its focus's path (null until then;
  // semantics/linear_negation/focus.cpp, core_off_path). Every write in place below a node
  // forgets it with the node's free-variable counts, as those depend on the subtree too.
  const Term* core_below() const { return fv_cache_.core; }
  void keep_core_below(const Term* slot) const { fv_cache_.core = slot; }
  // The binders' counts (bound_count), for an in-place step that does not bring them up to date.
  void forget_bound_counts() const { bound_count = {-1, -1}; }
  // How many free-variable lists this thread has made so far (it only grows). A reducer that
  // reads it unchanged knows that no node got a list in between, so its path holds no list it
  // must forget after a step; the count is the thread's because free_counts() is a const read
  // of a node that several runs may share, and a node never leaves its thread (its reference
  // counts are not atomic).
  static std::uint64_t free_lists_made() { return lists_made(); }

private:
  // (inline: a campaign's small terms make a list every few steps, and the reducer reads the
  // count at every step)
  static std::uint64_t& lists_made() {
    static thread_local std::uint64_t made = 0;
    return made;
  }
  const FreeCounts& kept_counts(FreeCounts counts) const { // counts a list made, keeps it
    ++lists_made();
    return fv_cache_.counts.emplace(std::move(counts));
  }
  struct FreeCountsCache { // not copied with the node; held inline (one allocation less a node)
    std::optional<FreeCounts> counts;
    const Term* core = nullptr; // core_below
    FreeCountsCache() = default;
    FreeCountsCache(const FreeCountsCache&) {}
    FreeCountsCache& operator=(const FreeCountsCache&) {
      counts.reset();
      core = nullptr;
      return *this;
    }
  };
  mutable FreeCountsCache fv_cache_;
};

// A node is made with its shared count in one allocation (make_shared_node): 432 bytes and the
// count's 16 are the allocator's 448-byte class, and 8 bytes more would be its 512-byte one
// (jemalloc's classes; a campaign of small terms took 6% more instructions, and every term 14%
// more memory). Fields are placed so that their padding holds what was added since.
inline constexpr std::size_t node_size = 432;
static_assert(sizeof(Node) <= node_size || sizeof(void*) != 8,
              "linear-negation's Node left its allocation class: see node_size");

class Names;
// height, size, binders, plain_stems and names_seen from the children (the reducer's in-place
// step)
void measure(Node& n);
// The bits of Node::names_seen that stand for the name: three of the 64 (a Bloom filter of three
// hashes, cut from FNV-1a of its bytes; the same bit may come twice). (9)'s descent walks the
// small siblings whose filter lets the substituted name through, and with one bit a name 87% of
// those walks at `rnn 2000 bp` found no occurrence: a subterm of five names passed another name
// 7.5% of the time, with three bits 0.9% (twenty names: 27% and 23%; forty: 47% and 61%).
inline NameFilter name_bits(std::string_view name) {
  std::uint32_t h = 2166136261U;
  for (const char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
  h ^= h >> 15;
  const auto bit = [](std::uint32_t position) { return NameFilter{1} << (position & 63U); };
  return bit(h) | bit(h >> 6 ^ h >> 21) | bit(h >> 12 ^ h >> 26);
}
// Whether a filter holds the bits of a name (name_bits): no when one is clear, then the name is
// not among those the filter was made of.
inline bool holds_bits(NameFilter filter, NameFilter bits) {
  return (filter & bits) == bits;
}
// Whether the name may occur in t (no when one of its bits is clear: then it occurs nowhere in t).
inline bool may_name(const Node& t, NameFilter bits) {
  return holds_bits(t.names_seen, bits);
}
// Makes the children of a shared copy (one level; nothing when n is not one).
void force(const Node& n);
// The same, and for a sum the sums below it down its spine at once: what force makes of n and
// then of each sum below, name for name (the listing of a maximal sum's summands reads them all;
// forced one level at a time, each sum below was first made a suspension).
void force_sum(const Node& n);
// Makes every child of every shared copy below t (before a term leaves the reducer).
void force_all(const Term& t);
// The copy of v whose binders are numbered base + 1, … (Names::reserve_block), built lazily: the
// term rename_bound would build with those numbers drawn.
Term share_copy(const Term& v, long base, const SharedNode<BinderLog>& log);
// The same where the numbers are no block: those names.fresh draws for v's binders, drawn here in
// rename_bound's order, so that the copy reads as rename_bound's with names, name for name.
Term share_copy_drawn(const Term& v, Names& names, const SharedNode<BinderLog>& log);
// t{v/z} for a shared copy t not forced yet and a variable v (rule (11)): a copy of t's original,
// not forced either, whose renaming is t's followed by z ↦ v (t's binders are named fresh, so
// none captures v), which forced reads as t forced with z substituted, name for name. c: z's
// free occurrences in t. Null where v is free in t already (its list would name v twice).
Term substituted_copy(const Node& t, const std::string& z, const std::string& v, int c);

// ---- constructors ----
Term var(std::string name);
Term num(double r);
Term lam(Binder x, Term body);
Term app(Term f, Term u);
Term pair(Term a, Term b);
Term tuple(const std::vector<Term>& items); // ⟨t1, …, tn⟩ right-nested; n ≥ 1
Term let(Binder x, Term body, Term bound);  // body[x := bound]
Term let_pair(Binder x, Binder y, Term body, Term bound);
Term add(Term a, Term b);
Term prim(std::string name, std::vector<Term> args);
Term mul(Term a, Term b);
Term zero(int d); // 0 : R^d, the d-tuple of zeros (L318-322)
Term with_pos(const Term& t, SourcePos pos);
Term rebuild(const Node& n, std::vector<Term> kids); // same node, new children

Binder exp_binder(std::string name, Type type = nullptr);
Binder lin_binder(std::string name);

// ---- observations ----
bool is_value(const Term& t); // v ::= x | r | λ | ⟨v, v⟩ (grammar (5))
// n's free-variable counts sorted by name, a variable's included: it is its own one entry, held
// in `single` (no allocation).
std::span<const FreeEntry> free_counts_of(const Node& n, FreeEntry& single);
// a <=> b in the order of std::string_view (bytes as unsigned char, then length), inline: the
// names are short and mostly differ in their first bytes, and the free-variable lists of a deep
// stack of explicit substitutions compare them so often that a call of memcmp each time cost
// more than the comparison (free_counts sorts by this order).
inline int compare_names(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto ca = static_cast<unsigned char>(a[i]);
    const auto cb = static_cast<unsigned char>(b[i]);
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}
// The name env renames x to, or null. Inline and by a scan while env is short: a copy renames
// one or two names of a subterm, and a binary search calling memcmp per probe cost more.
inline const std::string* renamed_in(const Renaming& env, std::string_view x) {
  constexpr std::size_t short_env = 8;
  const auto same = [x](const std::string& name) {
    return name.size() == x.size() && compare_names(name, x) == 0;
  };
  if (env.size() <= short_env) {
    for (const auto& [from, to] : env)
      if (same(from)) return &to;
    return nullptr;
  }
  const auto it =
      std::lower_bound(env.begin(), env.end(), x, [](const auto& e, std::string_view n) {
        return compare_names(e.first, n) < 0;
      });
  return it != env.end() && same(it->first) ? &it->second : nullptr;
}
bool occurs_free(const std::string& x, const Term& t);
int free_count(const std::string& x, const Term& t);
// free_count of the binder's x (which 0) or y (1) in its body: the node's bound_count, computed
// and kept when not known.
int binder_count(const Node& n, int which);
// Sets bound_count at every binder of t in one walk (O(|t|), no free-variable list made).
void count_binders(const Term& t);
// rebuild that keeps n's bound_count: for a caller that knows the new children hold the binders'
// names as often as n's did.
Term rebuild_counted(const Node& n, std::vector<Term> kids);
std::set<std::string> free_variables(const Term& t);
void binder_names(const Term& t, std::set<std::string>& out);
void all_names(const Term& t, std::set<std::string>& out); // binders and variables
long size_of(const Term& t);                               // |t|: one per node (spec §2.6)
long weighted_size(const Term& t); // ‖t‖: variables count 2 (Lemma 7's proof)
long pair_count(const Term& t);
int depth_of(const Term& t);
// α-equivalence key (binders as de Bruijn levels; ES annotations ignored).
std::string alpha_key(const Term& t);
bool is_numeral_tuple(const Term& t); // a closed Euclidean value
std::vector<double> numeral_reals(const Term& t);

// Every subterm of t in preorder, with the one-hole context around it: plug(r) rebuilds t with r
// in the subterm's place (C{r}). visit returns false to skip the subterm's children.
using Plug = std::function<Term(const Term&)>;
void for_each_subterm(const Term& t, const std::function<bool(const Term&, const Plug&)>& visit);

// ---- a fresh-name supply (spec §4.1: rename apart) ----
class Names {
public:
  Names() = default;
  explicit Names(const Term& t); // every name of t (binders and variables) is taken
  // These names are taken (each once: a term's names as its free table interned them).
  explicit Names(const std::vector<std::string>& names);
  // The same off the free table's own set, copied whole instead of each name hashed again.
  explicit Names(const NameTable& names);
  void reserve(const std::string& name);
  bool taken(const std::string& name) const { return used_.contains(name); }
  // Whether a taken name ends in '_' and this number: only then can a name drawn with it be
  // taken (a draw's name is a stem, '_' and the counter), so fresh() and the reducer hash a
  // drawn name only then.
  bool number_taken(long n) const {
    return std::binary_search(numbered_.begin(), numbered_.end(), n);
  }
  std::string fresh(const std::string& base);
  // Draws `count` numbers at once, when fresh() would draw them in a row without skipping one
  // (no taken name ends in any of them): the number before the block, else nothing.
  std::optional<long> reserve_block(long count);
  // The number the last drawn name ends in (each draw's is larger than the one before).
  long last_drawn() const { return counter_; }

private:
  // Takes the name; the number it ends in when it is new and ends in '_' and a number.
  std::optional<long> take(const std::string& name);
  // The number the name ends in when it ends in '_' and a number.
  static std::optional<long> number_of(const std::string& name);

  NameTable used_; // membership only: fresh() draws by the counter
  // the numbers the names of used_ end in, sorted without repeats (ordered: blocks); a sorted
  // vector, filled at once for a term's names, where a set made a node for each
  std::vector<long> numbered_;
  long counter_ = 0;
};

// The name Names::fresh(base) draws with this number: base's stem (up to its first '_'), '_' and
// the number.
std::string drawn_name(const std::string& base, long number);
// The names `count` calls of Names(t).fresh(stem) draw (stem without '_'), found without a table
// of every name of t: only t's names stem_n, which those draws could meet, are looked at.
std::vector<std::string> fresh_names(const Term& t, std::string_view stem, std::size_t count);

// Renames every bound variable of `t` to a fresh name (used when (9) copies a value, so that the
// term keeps the Barendregt convention and the rules at a distance never capture). `on_binder`
// sees each renamed binder (the reducer learns their types there instead of walking the copy).
using BinderHook = std::function<void(const Binder&)>;
Term rename_bound(const Term& t, Names& names, const BinderHook& on_binder = {});
// The renaming map of the walk, kept by a caller that renames many times (the reducer's rule
// (9)): empty between walks, but its buckets stay allocated, so a large copy no longer grows a
// fresh map (each rehash of which made glibc consolidate every freed node).
struct RenameScratch {
  std::unordered_map<std::string_view, std::string> env;
};
Term rename_bound(const Term& t, Names& names, const BinderHook& on_binder, RenameScratch& scratch);
// Renames binders that shadow another binder or a free variable (input normalisation).
Term make_binders_unique(const Term& t, Names& names);
// Whether make_binders_unique would rename nothing (it then returns t itself): t's binders have
// pairwise distinct names, none free in t. One walk, no free-variable list and no Names made: a
// generator builds its terms so (fresh binder names), and only checks them.
bool binders_unique(const Term& t);
// Meta-level substitution t{v/x} of all free occurrences (v a numeral or a variable, rule (11),
// or any term when binders are unique).
Term substitute(const Term& t, const std::string& x, const Term& v);
// substitute(t, x, var(to[x])) for every x of `to` in one walk (no free-variable list made):
// the new names are fresh, so the substitutions commute. Unchanged subterms are t's own nodes.
Term rename_free(const Term& t, const std::map<std::string, std::string>& to);

} // namespace adsem::linear_negation
