#pragma once
// Terms and boolean terms of the simple differentiable language (seed 003, Section 2,
// lines 102-112), as immutable nodes with shared children.
//
//   M, N, L ::= x | r | M + N | op(M) | let x:T = M in N | * | <M, N>_{T,U} | fst_{T,U}(M)
//             | snd_{T,U}(M) | if B then M else N | letrec f(x:T):U = M in N | f(M)
//             | M.rd_L(x:T. N)
//   B       ::= pred(M) | true | false
//
// The derived forms of Section 2.3 (tuple let, 0_T, +_T, grad, fd, let f(x) = ...) are macros:
// the parser expands them into these core nodes and keeps a `Sugar` record on the expansion so
// the printer can show the user's form (see sugar.hpp).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "syntax/core/diagnostic.hpp"
#include "syntax/simple_diff/type.hpp"

namespace adsem::simple_diff {

struct Node;
using TermPtr = std::shared_ptr<const Node>;

enum class NodeKind {
  var,      // x
  constant, // r
  add,      // M + N                (real only; a term former, not an op: line 108)
  op,       // op(M)
  let,      // let x:T = M in N
  unit,     // *                    (ASCII "()")
  pair,     // <M, N>_{T,U}
  fst,      // fst_{T,U}(M)
  snd,      // snd_{T,U}(M)
  if_,      // if B then M else N
  letrec,   // letrec f(x:T):U = M in N   (letrec_n when `limit` is set, Fig. 8)
  call,     // f(M)
  rd,       // M.rd_L(x:T. N)
  b_true,   // true
  b_false,  // false
  pred,     // pred(M)
};

// The user's surface form of an expanded derived form (printing only; the semantics never
// looks at it).
struct Sugar {
  enum class Kind {
    infix,     // a - b, a * b, a / b, a < b, a > b for op/pred applied to a pair
    grad,      // grad[L](x:T. N)            = 1.rd[L](x:T. N)           (line 140)
    fd,        // M.fd[U, L](x:T. N)         = M.rd[0_U](y:U. y.rd[L](x:T. N)) (lines 144-148)
    tuple_let, // let <x0:T0, ...> = M in N  (lines 114-126)
    zero,      // zero[T]                    = 0_T (lines 128-136)
    plus,      // plus[T](M, N)              = M +_T N (lines 128-136)
    let_fun,   // let f(x:T):U = M in N      = letrec ... (line 150)
  };
  struct Binder {
    std::string name;
    TypePtr type;
  };
  Kind kind = Kind::infix;
  TypePtr type;                // zero, plus: T; fd: U
  std::vector<Binder> binders; // tuple_let: the pattern; grad, fd: the binder x:T
  std::vector<TermPtr> parts;  // grad: L, N; fd: M, L, N; tuple_let: M, N; plus: M, N
};

struct Node {
  NodeKind kind = NodeKind::unit;
  std::optional<SourcePos> pos; // where the user wrote it; none for generated terms

  // var: x; op, pred: the symbol; let: bound x; letrec, call: f
  std::string name;
  // letrec: the parameter x; rd: the binder x
  std::string param;
  double value = 0.0; // constant
  // let: T; letrec: the parameter type T; rd: the binder type T
  TypePtr type;
  // letrec: the result type U
  TypePtr result_type;
  // pair, fst, snd: the annotations T, U (null until the type checker fills them in)
  TypePtr ann_left, ann_right;
  std::optional<int> limit; // letrec_n (Fig. 8)

  // Children, by kind:
  //   add, pair: a, b | op, fst, snd, call, pred: a | let: a = bound, b = body
  //   if: a = guard (boolean term), b = then, c = else | letrec: a = function body, b = scope
  //   rd: a = cotangent M, b = point L, c = body N
  TermPtr a, b, c;

  std::shared_ptr<const Sugar> sugar;

  bool is_boolean() const {
    return kind == NodeKind::b_true || kind == NodeKind::b_false || kind == NodeKind::pred;
  }
};

// Constructors (the `pos` argument is optional everywhere).
namespace mk {
using Pos = std::optional<SourcePos>;
TermPtr var(std::string x, Pos pos = {});
TermPtr constant(double r, Pos pos = {});
TermPtr add(TermPtr m, TermPtr n, Pos pos = {});
TermPtr op(std::string name, TermPtr m, Pos pos = {});
TermPtr let(std::string x, TypePtr t, TermPtr m, TermPtr n, Pos pos = {});
TermPtr unit(Pos pos = {});
TermPtr pair(TermPtr m, TermPtr n, TypePtr t = nullptr, TypePtr u = nullptr, Pos pos = {});
TermPtr fst(TermPtr m, TypePtr t = nullptr, TypePtr u = nullptr, Pos pos = {});
TermPtr snd(TermPtr m, TypePtr t = nullptr, TypePtr u = nullptr, Pos pos = {});
TermPtr if_(TermPtr guard, TermPtr m, TermPtr n, Pos pos = {});
TermPtr letrec(std::string f, std::string x, TypePtr t, TypePtr u, TermPtr m, TermPtr n,
               std::optional<int> limit = std::nullopt, Pos pos = {});
TermPtr call(std::string f, TermPtr m, Pos pos = {});
TermPtr rd(TermPtr cotangent, TermPtr point, std::string x, TypePtr t, TermPtr body, Pos pos = {});
TermPtr b_true(Pos pos = {});
TermPtr b_false(Pos pos = {});
TermPtr pred(std::string name, TermPtr m, Pos pos = {});
} // namespace mk

// A copy of `node` with the given sugar record.
TermPtr with_sugar(const TermPtr& node, Sugar sugar);
// A copy of `node` with other children / annotations (keeps kind, names, pos and sugar).
TermPtr with_children(const Node& node, TermPtr a, TermPtr b = nullptr, TermPtr c = nullptr);

// Values (seed 003 line 223): V ::= x | r | * | <V, W>_{T,U}.
bool is_value(const Node& m);
// Trace terms (seed 003 lines 261-265): no if, letrec, calls or rd.
bool is_trace_term(const Node& m);
// Number of nodes, counted as a tree (shared subterms count once per occurrence).
long term_size(const Node& m);

// Alpha-equivalence (seed 003 line 112: terms are identified up to alpha). Compares pair and
// projection annotations when both sides have them; ignores positions and sugar.
bool alpha_equal(const TermPtr& a, const TermPtr& b);

// Every identifier that occurs in the term (bound or free, ordinary or function variables).
void collect_names(const Node& m, std::vector<std::string>& out);

} // namespace adsem::simple_diff
