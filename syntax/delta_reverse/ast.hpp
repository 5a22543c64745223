#pragma once
// Abstract syntax of Krawiec et al.'s language (seed 001, Fig. 1, L45-86; spec §2) and of the
// target languages of its translations (spec §2.3): one term type, whose target-only forms
// ("shaded" in the paper, L86) appear only in the output of AD. Terms are immutable, shared nodes.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "syntax/core/diagnostic.hpp"
#include "syntax/core/shared_node.hpp"

namespace adsem::delta_reverse {

// ---- types (spec §2.2 grammar; §2.3 target additions) ----
struct TypeNode;
using Type = SharedNode<const TypeNode>;
struct TypeNode {
  enum class Kind {
    real,     // R
    integer,  // Z, the leaf type (L94); String is not supported (docs: deviations)
    product,  // A × B
    sum,      // A + B
    arrow,    // A → B
    monad,    // M A                        (target of Drev, Fig. 9)
    delta,    // Delta                      (Drev, L489-495)
    delta_id, // DeltaId                    (Drev)
    delta2,   // Delta2                     (Drev2, Fig. 7)
    dense,    // δS = R^a as one dense value (Drev1_S, Fig. 5)
    vector,   // Vector A                   (the array extension, §10.2, L848-862: left = A)
  };
  Kind kind;
  Type left, right; // product/sum/arrow parts; monad: left
};

Type real_type();
Type int_type();
Type product_type(Type a, Type b);
Type sum_type(Type a, Type b);
Type arrow_type(Type a, Type b);
Type monad_type(Type a);
Type delta_type();
Type delta_id_type();
Type delta2_type();
Type dense_type();
Type vector_type(Type a);
bool same_type(const Type& a, const Type& b);
// No arrow and no target type anywhere: the types S and T of a main expression (L111-121).
bool first_order(const Type& t);
// Real, Delta, Delta2, δS and products of them: the types sumV[A] sums over (spec §9.12).
bool additive(const Type& t);
// Reals, Z and products/sums of them, no target type (first_order).
std::string print_type(const Type& t);

// ---- terms ----
enum class Kind {
  // source (Fig. 1)
  var,     // x
  lam,     // \(x : A). e
  app,     // e1 e2
  let,     // let x = e1 in e2
  pair,    // (e1, e2)
  fst,     // fst e
  snd,     // snd e
  inl,     // inl[B] e      (type = the other summand B)
  inr,     // inr[A] e      (type = the other summand A)
  case_,   // case e0 of inl x1 -> e1 | inr x2 -> e2
  real,    // r
  integer, // k
  prim,    // op (a constant of function type)
  proj,    // e.i (surface sugar, spec §2.2; the type checker elaborates it to fst/snd)
  // the array extension (§10.2, L848-862; spec §4.10): constants of function type, polymorphic
  // by their own typing rules (footnote 12, L864); type = the element type A. N is read as Int.
  index, // index[A] : (Vector A × Int) → A
  build, // build[A] : (Int × (Int → A)) → Vector A
  // a reduction over a vector (spec §9.12: no fold, so it needs a primitive; an extension the
  // spec suggests, not a rule of the paper). type = A, the summand: Real in source programs
  // (`sumV`); the translations use it at the dual types R × δR, R × δS, R × Delta2, R × Delta.
  sum_v, // sumV[A] : Vector A → A, A additive (reals and tangents, products of them)
  // target of Drev (Fig. 9, Fig. 10)
  pure,      // pure e
  bind,      // do { x <- e1; e2 }   (name empty: do { e1; e2 })
  delta_let, // deltaLet e
  d_zero,    // Zero
  d_scale,   // Scale(r, d)
  d_add,     // Add(d1, d2)
  d_var,     // Var(id)
  // target of Drev2 (Fig. 7)
  d2_zero,   // Zero2
  d2_onehot, // OneHot(i)
  d2_scale,  // Scale2(r, d)
  d2_add,    // Add2(d1, d2)
  // target of Drev1_S (Fig. 5, §4.3 polytypic ops on δS = R^a)
  s_zero,   // zeroS
  s_oplus,  // oplusS(d1, d2)
  s_otimes, // otimesS(r, d)
  // target of Drev{build} (§10.2, L856): runs a vector of computations in index order
  sequence, // sequence[A] e : M (Vector A), for e : Vector (M A); type = A
};

struct Node;
using Term = SharedNode<const Node>;
struct Node {
  Kind kind;
  std::string name;  // var; lam/let/bind binder; prim name; case: inl binder
  std::string name2; // case: inr binder
  Type type;         // lam: binder type; inl/inr: the other summand
  double real = 0.0;
  std::int64_t integer = 0;
  std::vector<Term> kids;
  SourcePos pos;
};

Term var(std::string x, SourcePos pos = {});
Term lam(std::string x, Type a, Term body, SourcePos pos = {});
Term app(Term f, Term a, SourcePos pos = {});
Term let(std::string x, Term e1, Term e2, SourcePos pos = {});
Term pair(Term a, Term b, SourcePos pos = {});
Term fst(Term e, SourcePos pos = {});
Term snd(Term e, SourcePos pos = {});
Term inl(Type other, Term e, SourcePos pos = {});
Term inr(Type other, Term e, SourcePos pos = {});
Term case_of(Term e0, std::string x1, Term e1, std::string x2, Term e2, SourcePos pos = {});
Term real(double r, SourcePos pos = {});
Term integer(std::int64_t k, SourcePos pos = {});
Term prim(std::string op, SourcePos pos = {});
Term proj(Term e, int index, SourcePos pos = {});
// op (e1, e2) / op e
Term call(const std::string& op, Term a, Term b);
Term call(const std::string& op, Term a);
Term pure(Term e, SourcePos pos = {});
Term do_bind(std::string x, Term e1, Term e2, SourcePos pos = {});
Term delta_let(Term e, SourcePos pos = {});
Term index_op(Type a, SourcePos pos = {});         // index[a]
Term build_op(Type a, SourcePos pos = {});         // build[a]
Term sum_v_op(Type a, SourcePos pos = {});         // sumV[a] (sumV for a = Real)
Term sequence(Type a, Term e, SourcePos pos = {}); // sequence[a] e
// One node of a target-only form with the given children (Zero, Scale, Add, Var, ...).
Term node(Kind kind, std::vector<Term> kids, SourcePos pos = {});

// Number of nodes.
std::size_t size_of(const Term& t);
// Structural equality (binder names included; positions ignored).
bool same_term(const Term& a, const Term& b);
// Every identifier the term mentions (free, bound, binders): gensyms avoid them (spec §9.7).
void collect_names(const Term& t, std::vector<std::string>& out);
// Is the form one of the target-only ("shaded", L86) forms?
bool is_target_form(Kind f);
bool mentions_target_forms(const Term& t);

// A supply of fresh names that avoids a given set (spec §9.7: no variable capture).
class FreshNames {
public:
  explicit FreshNames(std::vector<std::string> taken = {});
  std::string operator()(const std::string& stem);

private:
  std::vector<std::string> taken_;
  long counter_ = 0;
};

} // namespace adsem::delta_reverse
