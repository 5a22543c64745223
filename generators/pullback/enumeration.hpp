#pragma once
// Bounded-exhaustive enumeration of pullback-language terms
// (generators/core/sized_enumeration.hpp): the typing rules of Mak and Ong's Fig. 2 (seed 000,
// L180-187; spec §3.1) read as a grammar over sorts Γ ⊢ _ : σ, with finite choices where the rules
// leave one open (docs/enumeration.md states them):
//   - types: every type of a binder or premise is one of the universe
//     R, R × R, R ⇒ R, R*, Ω R = R ⇒ R*;
//   - numerals 1 and -2; the covector literal [1]* at R*; primitives sin : R → R,
//     mult : R² → R and g : R² → R² (Ex. 3.1, L177: the one square, asymmetric Jacobian), the
//     Jacobian 𝒥sin·S : R ⇒ R;
//   - (zero) at R* only, (sum) at R and R*; pairs, projections, λ, application at R ⇒ R and
//     Ω R (so gradient queries ((Ω λx:R. P)·ω) V : R* are application at Ω R);
//   - (dual) (λx:R. S)*·C at R*, the premise x ∈ lin(S) read as a sort of its own, Γ, x:R ⊢ S : R
//     with x linear: x, 0, S₁ + S₂ and (𝒥sin·S) P with x ∉ FV(P) (spec §2.4: lin(S P) =
//     lin(S) \ FV(P), lin(𝒥f·S) = lin(S), and the implementation's lin(0) = 𝒱, lin(+) = ∩);
//   - (pb) (Ω λx:R. P)·S at Ω R with P : R and S : Ω R;
//   - no let (it is the sugar of a β-redex, spec §3.1 [ID]); binders are named apart by their
//     depth (y1, y2, ...): no shadowing.
// Source bodies y1:σ ⊢ P : τ (σ, τ Euclidean: R, R × R), the first-order programs a gradient query
// ((Ω λy1:σ. P)·ω) V is built from (spec §10 template 1, as gen::first_order_query draws them),
// are sorts of their own (EnumSort::source): the same rules at R and R × R without Jacobians,
// dual maps and pullbacks, and with let y = N in M at R and R × R (a straight-line body's
// sharing, Ex. 3.7).
// Size is size_of (nodes as a tree), except that a sum of k summands counts its k - 1 binary +:
// a sum's left summand is not itself a sum, so each flattened sum is listed once.
#include <string>
#include <utility>
#include <vector>

#include "generators/core/sized_enumeration.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback::gen {

struct EnumSort {
  std::vector<std::pair<std::string, Type>> gamma; // Γ, innermost last
  Type type;                                       // σ
  int depth = 0;                                   // binders above: the next one is y<depth+1>
  std::string linear;   // non-empty: terms S with this variable in lin(S) (the (dual) premise)
  bool summand = false; // the left summand of a sum: not a sum itself
  bool source = false;  // a source body: no 𝒥, no dual map, no pullback; let at R and R × R
};

struct EnumGrammar {
  using Sort = EnumSort;
  using Term = pullback::Term;
  std::string key(const Sort& s) const;
  std::vector<adsem::gen::EnumProduction<Sort, Term>> productions(const Sort& s) const;
};

using TermEnumeration = adsem::gen::SizedEnumeration<EnumGrammar>;

const std::vector<Type>& enum_types();
// The closed ground sorts ⊢ _ : R and ⊢ _ : R*, whose terms (source terms and gradient queries)
// the properties take.
const std::vector<EnumSort>& enum_closed_sorts();
// The source bodies y1:σ ⊢ P : τ of gradient queries, σ and τ among R and R × R.
EnumSort enum_body_sort(const Type& sigma, const Type& tau);

} // namespace adsem::pullback::gen
