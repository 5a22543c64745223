#pragma once
// The perturbative λ-calculus (seed 004, §4 L134-191; spec §2): types, simple terms and
// perturbative terms (bags), as immutable shared nodes. Every node carries its type (Church-style
// annotations, spec §12.5). Terms are built ONLY through the smart constructors below, which
// implement the linearity sugar of L165-185 (spec §2.3): λ, T, ι_k, π_k and the operator position
// of application distribute over sums, so a Bag is always a multiset of simple terms and sums occur
// only at the top level and in argument positions.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "syntax/core/shared_node.hpp"

namespace adsem::perturbative {

// ---- types (L186, spec §2.1): σ ::= α | σ × τ | σ → τ, Tσ := σ × σ (an abbreviation) ----
struct TypeNode;
using Type = SharedNode<const TypeNode>;
struct TypeNode {
  enum class Kind { real, atom, product, arrow };
  Kind kind = Kind::real;
  std::string name; // atom
  Type left, right; // product factors / arrow domain and codomain
};
Type real_type();
Type atom_type(std::string name);
Type product_type(Type a, Type b);
Type arrow_type(Type a, Type b);
inline Type tangent_type(const Type& a) {
  return product_type(a, a);
} // Tσ = σ × σ (L186)
bool same_type(const Type& a, const Type& b);
std::string type_text(const Type& t, bool top = true); // "R * R -> R" style, parenthesised inside
bool is_product(const Type& t);
bool is_arrow(const Type& t);
const Type& component(const Type& product, int k); // σ_k of σ1 × σ2, k ∈ {1, 2}

// ---- terms (L135-141, spec §2.2) ----
enum class Kind { var, lam, app, push, inj, proj, numeral, primitive };

struct Simple;
using SimpleP = SharedNode<const Simple>;

// A perturbative term M ::= 0 | s + M: a multiset of simple terms of one type.
struct Term {
  Type type;
  std::vector<SimpleP> items; // empty = 0
  bool is_zero() const { return items.empty(); }
};

// An application's argument N, held by pointer: the nodes s_i N of one (Σ s_i) N (L165-185)
// share one N, so an application copies no bag (the ⬦ of Fig. 4 applies every summand of T_x s
// to the same bag, which made building T_x quadratic in its summands, spec §9.6). Immutable.
class Argument {
public:
  Argument() = default; // a node that is not an application: an empty bag of no type
  explicit Argument(Term n) : term_(std::make_shared<const Term>(std::move(n))) {}
  const Term& operator*() const { return term_ ? *term_ : none(); }
  const Term* operator->() const { return &**this; }
  operator const Term&() const { return **this; } // NOLINT: an argument reads as its bag
  // Whether more than one application node holds this bag: a walk over the DAG meets its
  // summands once per holder (they may be held once, by the bag, yet be reached twice).
  bool shared() const { return term_.use_count() > 1; }

private:
  static const Term& none() {
    static const Term empty;
    return empty;
  }
  std::shared_ptr<const Term> term_;
};

// A simple term s ::= x | λx.s | s N | T s | ι_k s | π_k s, plus [OURS] numerals and primitives.
struct Simple {
  Kind kind = Kind::var;
  Type type;         // the type of this node
  std::string name;  // var: the variable; lam: the binder; primitive: its table name
  Type binder_type;  // lam: σ of λx:σ
  int index = 0;     // inj / proj: k ∈ {1, 2}
  double value = 0;  // numeral
  SimpleP operand;   // lam body, T / ι / π operand, application operator
  Argument argument; // application argument (a sum: not linear, spec §2.3)
};

// ---- smart constructors: the sugar of L165-185 ----
Term zero(Type type);
Term single(SimpleP s);
Term var(std::string name, Type type);
Term numeral(double r); // 0.0 gives the empty bag (spec §4.5 "A result of 0.0 is written 0")
Term primitive(std::string name, Type type);
Term lam(std::string x, Type sigma, const Term& body); // λx.Σ s_i := Σ λx.s_i
Term app(const Term& op, Term argument);               // (Σ s_i) N := Σ s_i N
Term app(const Term& op, const Argument& argument);    // the same, sharing an existing N
Term push(const Term& op);                             // T Σ s_i := Σ T s_i
Term inj(int k, Type product, const Term& s);          // ι_k Σ s_i := Σ ι_k s_i
Term proj(int k, const Term& s);                       // π_k Σ s_i := Σ π_k s_i
Term sum(const Term& a, const Term& b);                // bag union
Term pair(const Term& a, const Term& b);               // ⟨M1, M2⟩ := ι1 M1 + ι2 M2 (L182)

// Rebuild a simple term with a new operand / argument (used by reduction in context).
Term with_operand(const Simple& s, const Term& operand);
Term with_argument(const Simple& s, Term argument);

// ---- observations ----
std::set<std::string> free_variables(const Term& m);
void free_variables(const Simple& s, std::set<std::string>& out);
long size_of(const Term& m); // tree size in nodes (bags count their summands)
// The tree size, computed on the shared DAG (memoised by node), saturating at `cap`: cheap even
// for T_x output, whose tree is exponential in the application depth (spec §9.6).
long tree_size(const Term& m, long cap);
int depth_of(const Term& m); // nesting depth
// A key equal for terms equal modulo α (binders as de Bruijn levels), AC of + (summands sorted)
// and numerals rounded to 1e-9 (spec §4.6 canonical form): for comparing normal forms (SEM-9).
std::string canonical_key(const Term& m);
// True when every summand is a numeral (type R) or an injection of numerals: a numeric value
// (spec §4.5 δ), i.e. a closed ground normal form.
bool is_numeric_value(const Term& m);
// The reals of a numeric value, flattened tangent-first like the model (spec §9.1).
std::vector<double> numeric_reals(const Term& m);

} // namespace adsem::perturbative
