#pragma once
// Bounded-exhaustive enumeration of perturbative terms (generators/core/sized_enumeration.hpp):
// the typing rules of Manzyuk's Fig. 2 (seed 004, L165-185) with the constants of spec §7, read
// as a grammar over sorts Γ ⊢ _ : σ, with finite choices where the rules leave one open
// (docs/enumeration.md states them):
//   - types: every type of a binder or premise is one of the universe R, R × R, R → R;
//   - numerals 1 and -2; constants sin : R → R and mul : R × R → R;
//   - the sum M + N at R (a bag), pairs ⟨M, N⟩ = ι1 M + ι2 N, projections, λ, application, and
//     T at R → R applied to a pair: (T f) N : R × R for f : R → R, N : R × R;
//   - binders named apart by depth (y1, y2, ...).
// The grammar is ambiguous modulo the sugar (+ is a bag, and λ, application and projection
// distribute over it: (λy. a + b) = (λy. a) + (λy. b)), so some terms are listed more than once.
// Size counts the productions' nodes: a constant's application 2 (the application and the
// constant), a pair 3 (two injections and their bag), T f N 2.
#include <string>
#include <utility>
#include <vector>

#include "generators/core/sized_enumeration.hpp"
#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative::gen {

struct EnumSort {
  std::vector<std::pair<std::string, Type>> gamma; // Γ, innermost last
  Type type;                                       // σ
  int depth = 0;                                   // binders above: the next one is y<depth+1>
};

struct EnumGrammar {
  using Sort = EnumSort;
  using Term = perturbative::Term;
  std::string key(const Sort& s) const;
  std::vector<adsem::gen::EnumProduction<Sort, Term>> productions(const Sort& s) const;
};

using TermEnumeration = adsem::gen::SizedEnumeration<EnumGrammar>;

const std::vector<Type>& enum_types();
// ⊢ _ : R, the closed ground terms adequacy and the strategies take.
EnumSort enum_closed_real_sort();
// y1 : R ⊢ _ : R, the bodies of the closed functions λy1:R. M the T_x properties take.
inline constexpr const char* enum_function_binder = "y1"; // the name of a binder at depth 1
EnumSort enum_function_body_sort();

} // namespace adsem::perturbative::gen
