#pragma once
// Bounded-exhaustive enumeration of linear-negation terms (generators/core/sized_enumeration.hpp):
// the typing rules of Table 1 (seed 002, L308-316, as reconstructed in spec §3.2) read as a
// grammar over sorts Γ ⊢_(z) _ : A, with finite choices where the rules leave one open
// (docs/enumeration.md states them):
//   - the type universe of binders and cut premises ((let), (let-pair), (app)): R, R × R,
//     R → R, R^⊥1; R^⊥2 is reached as the function of a linear application at R × R;
//   - numerals 1 and -2 by (num); 0 only by (zero), in a linear judgment;
//   - primitives sin, log (partial: log(-2) is outside its domain) and mul, with its linear
//     rules (mul) and (mul');
//   - sums at R and R × R, pairs, λ, application, ES, pair destructors, linear λ, linear
//     application and linear ES (let-lin), in both kinds of judgment where Table 1 allows;
//   - binders named apart by depth: y<k> exponential, a<k> linear λ, w<k> linear ES.
// Size is |t| (spec §2.6: one per node), every production one node. The grammar is unambiguous:
// no term has two derivations, since without a non-linear 0 no term is typed both Γ ⊢ t : R and
// Γ ⊢_z t : R, so (mul) and (mul') never overlap.
// Source programs x1..xn ⊢ t : R (EnumSort::source), the inputs of D, bp and the gradient, are
// sorts of their own: the non-linear fragment of Table 1 (spec §3.5: no (ax-lin), (zero),
// (λ-lin), (app-lin), (let-lin)), binder types R, R × R, R → R, and sums at R only (D(t + u)
// is defined for source sums at R, spec §3.5 erratum).
#include <string>
#include <utility>
#include <vector>

#include "generators/core/sized_enumeration.hpp"
#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation::gen {

struct EnumSort {
  std::vector<std::pair<std::string, Type>> gamma; // Γ (exponential variables), innermost last
  std::string linear;                              // z of Γ ⊢_z t : A, or "" for Γ ⊢ t : A
  Type type;                                       // A
  int depth = 0;       // binders above: the next one is named <stem><depth+1>
  bool source = false; // a source program's subterm: Λ(F) only (spec §3.5)
};

struct EnumGrammar {
  using Sort = EnumSort;
  using Term = linear_negation::Term;
  std::string key(const Sort& s) const;
  std::vector<adsem::gen::EnumProduction<Sort, Term>> productions(const Sort& s) const;
};

using TermEnumeration = adsem::gen::SizedEnumeration<EnumGrammar>;

// The universe of binder and premise types.
const std::vector<Type>& enum_types();
// ⊢ _ : A for the closed Euclidean types R and R × R, the inputs of the properties that take part.
const std::vector<EnumSort>& enum_closed_sorts();
// The universe of binder and premise types of source programs: R, R × R, R → R.
const std::vector<Type>& enum_source_types();
// x1..xn ⊢ _ : R (n ≥ 1), the bodies of source programs.
EnumSort enum_source_sort(int inputs);

} // namespace adsem::linear_negation::gen
