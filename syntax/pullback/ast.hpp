#pragma once
// AST of Mak–Ong's differential-form pullback language (seed 000, Fig. 1 L129-133; spec §2.2,
// §2.5, §2.7). Immutable shared nodes (SharedNode<const Node>), no raw owning pointers.
// [ID, ours] Every variable occurrence carries its type (Church style, resolved by the parser from
// its binder), so the type of any term is computed locally (type_of) and the reducer knows the
// dimensions rule 5⁺ and rule 8 need (spec §3.2 "The reducer needs types at run time").
#include <atomic>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "syntax/core/diagnostic.hpp"
#include "syntax/core/shared_node.hpp"
#include "syntax/pullback/covector.hpp"
#include "syntax/pullback/small_list.hpp"

namespace adsem::pullback {

// σ, τ ::= R | σ₁ × σ₂ | σ₁ ⇒ σ₂ | σ*   (spec §2.1). `any` is the type of an unannotated `zero`.
struct TypeNode;
using Type = SharedNode<const TypeNode>;
struct TypeNode {
  enum class Kind { real, prod, arrow, dual, any };
  Kind kind = Kind::real;
  Type left;  // prod/arrow: left; dual: the space σ of σ*
  Type right; // prod/arrow: right
  // [perf] Filled by the constructors below from left and right (types are immutable):
  // rule 8's stage tuples nest one product deeper per stage, so walking them made 5⁺ quadratic.
  bool euclidean = false; // is_euclidean
  std::size_t dims = 0;   // dim, when euclidean
};

Type real_type();
Type any_type();
Type prod(Type a, Type b);
Type arrow(Type a, Type b);
Type dual(Type a);
Type one_form(Type a);          // Ωσ ≡ σ ⇒ σ*
Type real_power(std::size_t n); // Rⁿ, left nested: R³ = (R×R)×R
bool is_real(const Type& t);
bool is_prod(const Type& t);
bool is_arrow(const Type& t);
bool is_dual(const Type& t);
bool is_any(const Type& t);
bool mentions_any(const Type& t);             // is any part of t still unknown ('_')?
bool is_euclidean(const Type& t);             // built from R and × alone [ID-2]
std::size_t dim(const Type& t);               // of a Euclidean type
bool same_type(const Type& a, const Type& b); // `any` matches everything
std::string type_text(const Type& t);

enum class Kind {
  var,      // x
  lam,      // λx:σ.S                     kids [body]
  app,      // S P                        kids [function, argument]
  proj,     // π_i(S), index 1|2           kids [operand]
  pair,     // ⟨S₁,S₂⟩                     kids [first, second]
  num,      // r̲
  prim,     // f̲(P)                        kids [argument]
  jac,      // 𝒥f̲·S                        kids [direction]
  dualmap,  // (λx:σ.S₁)*·S₂              kids [body, functional]
  pullback, // (Ω λx:σ.P)·S               kids [body, oneform]
  covec,    // r̲* : σ*  (vec, type = σ)
  sum,      // P₁ + … + Pₙ (n ≥ 2)        kids
  zero,     // 0 (the sum unit; type may be any)
  let,      // let x:ρ = M in N           kids [bound, body]   [ID-7]
};
// Whether a node of kind k binds its name, and which kid is under the binder (let: the body;
// lam/dualmap/pullback: the body, kid 0).
constexpr bool binds(Kind k) {
  return k == Kind::lam || k == Kind::dualmap || k == Kind::pullback || k == Kind::let;
}
constexpr std::size_t bound_child(Kind k) {
  return k == Kind::let ? 1 : 0;
}

// [perf] What substitution needs to know about a subterm without walking it.
// FV(t) exactly (a sorted vector), unless it has more than max_free_names names (or a child
// had): then `many` is set, `free` is empty and the question goes to the children. For the
// binders of t (every lam/dualmap/pullback/let name anywhere below, shadowed or not): a 64-bit
// mask of name hashes and the largest fresh-name number (name_number). Both over-approximate in
// the safe direction: if y's bit is clear, or name_number(y) exceeds the maximum, no binder of t
// is named y. Fresh names (substitution.hpp) carry a process-wide increasing number, so a name
// drawn now is larger than every number in an older term: substitution can tell at once that
// none of its binders would capture it.
// The free names are views of the names of variable nodes below (held by the node, so they live
// as long as the facts: the reducer's in-place edits of a node, semantics/pullback/strategy.cpp,
// drop its facts with the kid they replace). [perf] No string is copied to merge kids' lists.
struct NodeFacts {
  static constexpr std::size_t max_free_names = 32;
  SmallList<std::string_view> free = {}; // up to two inline (small_list.hpp)
  bool many = false;
  std::uint64_t binder_mask = 0;
  std::int64_t binder_number_max = INT64_MIN;
};
// Whether two names are equal. [perf] Inline, and from the last character: the names the walks
// compare are mostly fresh names of one stem and length (x_12, x_13) that differ in their last
// digit, and std::string's == (and std::equal on characters) called memcmp for each such pair.
[[gnu::always_inline]] inline bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = a.size(); i > 0; --i)
    if (a[i - 1] != b[i - 1]) return false;
  return true;
}
// The number n of a name of the fresh-name shape "stem_n" (n ≤ 18 digits), else -1.
std::int64_t name_number(std::string_view name);
std::uint64_t name_bit(std::string_view name);

// The facts of a node, filled at the first question (from the kids' facts) and never copied: a
// copy of a Node (`Node n = *t; n.kids[i] = ...`) starts empty, so the facts always describe the
// kids the node has. A node whose facts equal one kid's (a projection, a primitive, a pair with a
// closed binder-free side) borrows that kid's facts: the kid lives as long as the node and never
// changes. Published atomically (terms are shared between threads).
class FactsSlot {
public:
  FactsSlot() = default;
  FactsSlot(const FactsSlot&) noexcept {}
  FactsSlot& operator=(const FactsSlot&) noexcept {
    reset();
    return *this;
  }
  ~FactsSlot() { reset(); }
  const NodeFacts* get() const {
    return reinterpret_cast<const NodeFacts*>(p_.load(std::memory_order_acquire) & ~borrowed);
  }
  // Keeps the first facts published (owned: deleted with the slot); returns those.
  const NodeFacts* publish(const NodeFacts* f, bool owned) const;

private:
  static constexpr std::uintptr_t borrowed = 1; // low bit of the pointer: not ours to delete
  // [perf] Inline: most slots are empty when reset (moved-from, copied and released nodes), and a
  // call per node destroyed was 1.25% of pullback/adequacy.
  void reset() {
    if (p_.load(std::memory_order_relaxed) != 0) release();
  }
  void release();
  mutable std::atomic<std::uintptr_t> p_{0};
};

// Whether a node is an atom (is_atom), remembered at the first question and, like the facts, never
// copied (a copy may get other kids). [perf] An atom is a projection path of its root variable;
// rule 8 (seed 000 Fig. 3 L240) lengthens every path of the rest of the series by one projection
// per stage, and the substitutions share the paths (substitution.cpp), so asking a path answers
// from its operand's mark instead of walking to the root.
class AtomMark {
public:
  AtomMark() = default;
  AtomMark(const AtomMark&) noexcept {}
  AtomMark& operator=(const AtomMark&) noexcept {
    v_.store(unknown, std::memory_order_relaxed);
    return *this;
  }
  ~AtomMark() = default;
  std::uint8_t get() const { return v_.load(std::memory_order_relaxed); }
  void set(bool atom) const { v_.store(atom ? yes : no, std::memory_order_relaxed); }
  static constexpr std::uint8_t unknown = 0, no = 1, yes = 2;

private:
  mutable std::atomic<std::uint8_t> v_{unknown};
};

// A flag on a node, set once and, like the atom mark, never copied (a copy starts unmarked).
// inert_mark: a reducer has remembered the node as holding no redex (the inert subterms of
// semantics/pullback/strategy.hpp). [perf] The search asks its table only about marked nodes: most
// nodes it meets were never remembered, and a hashed lookup for each was most of what it spent on
// them. A mark left after its entry is gone (the table restarted, or another reducer's) costs a
// lookup, never an answer. A node edited in place (substitute_in_place, substitution.hpp) is
// unmarked again, and the reducer then places its answer anew.
// keyed_mark: a memo that does not hold its nodes (semantics/pullback/node_memo.hpp) keys an
// answer by the node's address: such a node is never edited in place.
class NodeMark {
public:
  NodeMark() = default;
  NodeMark(const NodeMark&) noexcept {}
  NodeMark& operator=(const NodeMark&) noexcept {
    v_.store(false, std::memory_order_relaxed);
    return *this;
  }
  ~NodeMark() = default;
  bool get() const { return v_.load(std::memory_order_relaxed); }
  void set() const { v_.store(true, std::memory_order_relaxed); }

private:
  mutable std::atomic<bool> v_{false};
};

struct Node;
using Term = SharedNode<const Node>;
using Kids = SmallList<Term>; // up to two inline (small_list.hpp)
struct Node {
  Kind kind = Kind::zero;
  std::string name = {};    // var, binder of lam/dualmap/pullback/let, primitive of prim/jac
  Type type = {};           // var: its type; binders: the bound variable's type; covec: σ; zero;
                            // prim/jac: the primitive's signature dom ⇒ cod
  int index = 0;            // proj
  AtomMark atom_mark = {};  // use is_atom (in the padding after index: the node does not grow)
  NodeMark inert_mark = {}; // the reducer's (strategy.cpp; in the same padding)
  NodeMark keyed_mark = {}; // node_memo.hpp's (in the same padding)
  double value = 0.0;       // num
  Covector vec = {};        // covec
  Kids kids = {};
  SourcePos pos = {};
  FactsSlot facts_slot = {}; // use facts(t)
};
// [perf] With its shared count the node fills jemalloc's 160-byte class (cli/main.cpp gives that
// class one-page slabs); a larger node would fall into the 192-byte class.
static_assert(sizeof(Node) <= 144);

// A node made from n (the construction path of every node; facts come at the first question).
// [perf] n is moved once, into the shared block (by value, each call layer moved it again).
Term make_node(Node&& n);
// A node like `like` but with no kids, for the caller to give it its kids (and another binder
// name) before it shares the node: every other field copied, the old kids not (a copy
// `Node n = *t` copies the kids only to throw them away). [perf] Substitution builds the kids it
// rebuilds in the node's own block, where a list built aside was moved in twice.
SharedNode<Node> remake(const Node& like);
// The facts computed and published at the first question (facts' slow path).
const NodeFacts& computed_facts(const Term& t);
// [perf] Inline: substitution and occurs_free ask at every node they visit, and most nodes have
// their facts already (a call each was 2% of pullback/adequacy). Always: GCC kept a called copy
// where compute_facts asks the kids' facts (ast.cpp), about 0.5% of adequacy.
[[gnu::always_inline]] inline const NodeFacts& facts(const Term& t) {
  if (const NodeFacts* f = t->facts_slot.get()) return *f;
  return computed_facts(t);
}
// The facts recomputed by walking the whole term (free_vars and every binder); false and a
// description in `why` if a node's stored facts differ (tests: facts must never go stale).
bool facts_consistent(const Term& t, std::string& why);
// No binder anywhere in t is named y (false: there may be one).
bool binds_no(const Term& t, std::string_view y);

// Smart constructors.
Term var(std::string name, Type type, SourcePos pos = {});
Term lam(std::string x, Type sigma, Term body, SourcePos pos = {});
Term app(Term f, Term a, SourcePos pos = {});
Term proj(int i, Term s, SourcePos pos = {});
Term pair(Term a, Term b, SourcePos pos = {});
Term num(double r, SourcePos pos = {});
// f̲(P) and 𝒥f̲·S carry f's signature dom ⇒ cod (a Euclidean arrow type, spec §3.1 ID-8), so
// type_of needs no table; semantics/pullback/primitive_table.hpp builds them from the shared table.
Term prim(std::string f, Type signature, Term a, SourcePos pos = {});
Term jac(std::string f, Type signature, Term s, SourcePos pos = {});
Term dualmap(std::string x, Type sigma, Term body, Term functional, SourcePos pos = {});
Term pullback(std::string x, Type sigma, Term body, Term oneform, SourcePos pos = {});
Term covec(std::vector<double> c, Type sigma, SourcePos pos = {});
Term covec(Covector c, Type sigma, SourcePos pos = {});
Term zero(Type t = nullptr, SourcePos pos = {});
Term sum(std::vector<Term> items, SourcePos pos = {}); // flattens; 0 items → zero, 1 → it
Term let(std::string x, Type rho, Term bound, Term body, SourcePos pos = {});
// A left-nested numeral tuple of a Euclidean type (zero-filled by flat values).
Term numeral_tuple(const Type& sigma, const std::vector<double>& flat);
// The n components of p : Rⁿ (left nested: component i of n is π₂(π₁^(n−1−i)(p)), the first
// π₁^(n−1)(p)) as atoms over one shared spine π₁(p), π₁(π₁(p)), … (the pattern λ of seed 000
// §3.1.3 L167-173). [perf] Substitution keeps a shared spine shared (substitution.cpp), so when
// rule 8 lengthens every path at a stage it rebuilds the spine once, not once per path.
std::vector<Term> components(const Term& p, std::size_t n);

// Type of a term from the annotations (no checking; zero: its annotation or any).
Type type_of(const Term& t);
// The same, remembered by node: a walk that asks at every node (annotate_zeros) stays linear, and
// the types of nested terms share their parts instead of being rebuilt per level. The memo holds
// its nodes, so a key's address cannot be reused by a new node while the memo lives.
using TypeMemo = std::unordered_map<const Node*, std::pair<Term, Type>>;
Type type_of(const Term& t, TypeMemo& memo);

// The signature dom ⇒ cod of a prim/jac node.
inline Type prim_domain(const Term& t) {
  return t->type->left;
}
inline Type prim_codomain(const Term& t) {
  return t->type->right;
}

std::set<std::string> free_vars(const Term& t);
bool occurs_free(const std::string& x, const Term& t);
std::size_t size_of(const Term& t);
// α-equivalence (zero annotations ignored).
bool alpha_equal(const Term& a, const Term& b);

// Atoms y_p (spec §2.5 ID-1): a variable followed by a projection path.
bool is_atom(const Term& t); // remembered per node (AtomMark)
const std::string& atom_root(const Term& t);
std::vector<int> atom_path(const Term& t); // outermost projection last
bool is_numeral_tuple(const Term& t);
void flatten_numerals(const Term& t, std::vector<double>& out);

} // namespace adsem::pullback
