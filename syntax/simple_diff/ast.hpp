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
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "syntax/core/diagnostic.hpp"
#include "syntax/core/shared_node.hpp"
#include "syntax/simple_diff/type.hpp"

namespace adsem::simple_diff {

struct Node;
using Term = SharedNode<const Node>;

enum class Kind {
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
    Type type;
  };
  Kind kind = Kind::infix;
  Type type;                   // zero, plus: T; fd: U
  std::vector<Binder> binders; // tuple_let: the pattern; grad, fd: the binder x:T
  std::vector<Term> parts;     // grad: L, N; fd: M, L, N; tuple_let: M, N; plus: M, N
};

// The fields only letrec, rd and the expansions of derived forms carry, kept out of the node
// so that the common nodes (variables, constants, sums, lets, pairs: nearly all of a
// derivative) stay small: a smaller node is fewer cache lines to build, walk and free.
struct NodeExtra {
  std::optional<int> limit; // letrec_n (Fig. 8)
  // letrec: the parameter x; rd: the binder x
  std::string param;
  // letrec: the result type U
  Type result_type;
  // Held here rather than behind its own pointer: a sugared node costs one allocation more.
  std::optional<Sugar> sugar;
};

struct Node {
  // The fields every walk reads (kind, a constant's value, the children) come first: behind the
  // shared pointer's 16-byte count they fill the allocation's first cache line (up to b) and
  // part of the second. The walks' time per node on large terms is mostly the misses on
  // reading these fields; declared after the names and types they sat two lines further on.
  Kind kind = Kind::unit;
  std::optional<SourcePos> pos; // where the user wrote it; none for generated terms
  double value = 0.0;           // constant

  // Children, by kind:
  //   add, pair: a, b | op, fst, snd, call, pred: a | let: a = bound, b = body
  //   if: a = guard (boolean term), b = then, c = else | letrec: a = function body, b = scope
  //   rd: a = cotangent M, b = point L, c = body N
  Term a, b, c;

  // var: x; op, pred: the symbol; let: bound x; letrec, call: f
  std::string name;
  // let: T; letrec: the parameter type T; rd: the binder type T;
  // pair, fst, snd: the annotations T, U as the one product T × U (null until the type checker
  // fills them in). One field rather than two keeps the node at 136 bytes: with the shared
  // pointer's 16-byte count, in jemalloc's 160-byte size class rather than the 192-byte one
  // (fewer bytes to build, walk and free; the executable gives that class one-page slabs,
  // cli/main.cpp).
  Type type;

  // The rare fields (null when all are absent); read them through the accessors below.
  std::shared_ptr<const NodeExtra> extra;

  std::optional<int> limit() const { return extra ? extra->limit : std::nullopt; }
  const std::string& param() const;
  const Type& result_type() const;
  const Sugar* sugar() const { return extra && extra->sugar ? &*extra->sugar : nullptr; }
  // The rare fields of this (freshly built, not yet shared) node, for writing: a private copy.
  NodeExtra& edit_extra();

  // pair, fst, snd: the annotations T and U (null when absent).
  const Type& ann_left() const;
  const Type& ann_right() const;
  // pair, fst, snd: the annotation T × U (null when absent; null on every other kind).
  const Type& annotation() const;

  bool is_boolean() const {
    return kind == Kind::b_true || kind == Kind::b_false || kind == Kind::pred;
  }
};

// Constructors (the `pos` argument is optional everywhere).
namespace mk {
using Pos = std::optional<SourcePos>;
Term var(std::string x, Pos pos = {});
Term constant(double r, Pos pos = {});
Term add(Term m, Term n, Pos pos = {});
Term op(std::string name, Term m, Pos pos = {});
Term let(std::string x, Type t, Term m, Term n, Pos pos = {});
Term unit(Pos pos = {});
Term pair(Term m, Term n, Type t = nullptr, Type u = nullptr, Pos pos = {});
Term fst(Term m, Type t = nullptr, Type u = nullptr, Pos pos = {});
Term snd(Term m, Type t = nullptr, Type u = nullptr, Pos pos = {});
// The same with the annotation given as the product T × U (e.g. another node's annotation()):
// no type is built.
Term pair_ann(Term m, Term n, Type product, Pos pos = {});
Term fst_ann(Term m, Type product, Pos pos = {});
Term snd_ann(Term m, Type product, Pos pos = {});
Term if_(Term guard, Term m, Term n, Pos pos = {});
Term letrec(std::string f, std::string x, Type t, Type u, Term m, Term n,
            std::optional<int> limit = std::nullopt, Pos pos = {});
Term call(std::string f, Term m, Pos pos = {});
Term rd(Term cotangent, Term point, std::string x, Type t, Term body, Pos pos = {});
Term b_true(Pos pos = {});
Term b_false(Pos pos = {});
Term pred(std::string name, Term m, Pos pos = {});
} // namespace mk

// A copy of `node` with the given sugar record.
Term with_sugar(const Term& node, Sugar sugar);
// A copy of `node` with other children / annotations (keeps kind, names, pos and sugar).
Term with_children(const Node& node, Term a, Term b = nullptr, Term c = nullptr);

// Values (seed 003 line 223): V ::= x | r | * | <V, W>_{T,U}.
bool is_value(const Node& m);
// Trace terms (seed 003 lines 261-265): no if, letrec, calls or rd.
bool is_trace_term(const Node& m);
// Number of nodes, counted as a tree (shared subterms count once per occurrence).
long term_size(const Node& m);

// Alpha-equivalence (seed 003 line 112: terms are identified up to alpha). Compares pair and
// projection annotations when both sides have them; ignores positions and sugar.
bool alpha_equal(const Term& a, const Term& b);

// Every identifier that occurs in the term (bound or free, ordinary or function variables).
void collect_names(const Node& m, std::vector<std::string>& out);
// The same identifiers, each passed to `visit` (nothing is copied).
void for_each_name(const Node& m, const std::function<void(const std::string&)>& visit);

} // namespace adsem::simple_diff
