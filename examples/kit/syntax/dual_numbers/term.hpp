#pragma once
// The simply typed λ-calculus with reals, products and primitive operations on which Huot,
// Staton and Vákár define their forward-mode dual-numbers macro D ("Correctness of Automatic
// Differentiation via Diffeologies and Categorical Gluing", FoSSaCS 2020). The paper's text is
// not on this machine: the grammar below is a fragment of our choosing (reals, + × sin cos,
// pairs, projections, λ and application), not checked against the paper's.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "syntax/core/diagnostic.hpp"
#include "syntax/core/shared_node.hpp"

namespace adsem::dual_numbers {

// τ ::= real | τ × τ | τ → τ
enum class TypeKind { real, product, arrow };
struct TypeNode;
using Type = SharedNode<const TypeNode>;
struct TypeNode {
  TypeKind kind = TypeKind::real;
  Type left, right; // product: τ1 × τ2; arrow: domain → codomain
};
Type real_type();
Type product(Type left, Type right);
Type arrow(Type domain, Type codomain);
bool same_type(const Type& a, const Type& b);
std::string print_type(const Type& t);

// t ::= x | c | op(t, ...) | λx:τ.t | t t | ⟨t, t⟩ | π_i t
enum class Kind { var, constant, op, lam, app, pair, proj };
inline constexpr std::size_t kind_count = 7;
enum class Op { add, mul, sin, cos };
inline constexpr std::size_t op_arity(Op op) {
  return op == Op::add || op == Op::mul ? 2 : 1;
}
std::string op_name(Op op); // the name of the primitive in semantics/core's table

struct Node;
using Term = SharedNode<const Node>;
struct Node {
  Kind kind = Kind::constant;
  std::string name = {};         // var: the variable; lam: the binder
  double value = 0;              // constant
  Op op = Op::add;               // op
  int index = 1;                 // proj: 1 or 2
  Type binder_type = nullptr;    // lam
  Term a = nullptr, b = nullptr; // children: op's operands, λ's body (a), app's function and
                                 // argument, pair's components, proj's operand (a)
  std::optional<SourcePos> pos = std::nullopt; // var: where the parser read it (rule files)
};

Term var(std::string name, std::optional<SourcePos> pos = std::nullopt);
Term constant(double value);
Term op(Op o, Term x, Term y = nullptr);
Term lam(std::string x, Type t, Term body);
Term app(Term f, Term argument);
Term pair(Term first, Term second);
Term proj(int index, Term operand);
// The node with its children replaced (a congruence step rebuilds its redex's ancestors).
Term with_children(const Node& n, Term a, Term b);

bool is_value(const Node& t); // c | λx.t | ⟨v, v⟩
int size(const Term& t);
// The same term, node by node (names, numerals and binder types included; positions ignored).
bool same_term(const Term& s, const Term& t);
std::string print(const Term& t);
std::vector<std::string> tags(const Term& t); // the constructs t contains (campaign health)

// Γ ⊢ t : τ, or an AdsemError (ErrorKind::type) saying why not.
using TypeContext = std::vector<std::pair<std::string, Type>>;
Type typecheck(const Term& t, const TypeContext& gamma = {});

// t[v/x] for a closed v: the calculus is call by value and reduces closed terms only, so no
// substituted value has free variables that a binder could capture.
Term substitute(const Term& t, const std::string& x, const Term& v);

} // namespace adsem::dual_numbers
