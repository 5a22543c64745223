#pragma once
// Bounded-exhaustive enumeration of simple-diff terms (generators/core/sized_enumeration.hpp):
// the typing rules of seed 003, Fig. 1 (lines 152-183), read as a grammar over sorts Φ | Γ ⊢ _ : A,
// with finite choices where the rules leave one open, so that there are finitely many terms of
// each size (docs/enumeration.md states them):
//   - types: every type of a binder, annotation or premise is one of the universe
//     real, unit, real × real;
//   - literals: 0, 1 and -2 (zero, the unit of mul, a point outside log's domain);
//   - operations: exp and log (unary), mul (on real × real); predicate: less (on real × real);
//   - letrec: f(y:real):real only, limited to depth 2 (Fig. 8, letrec_2: the approximant M^(2) of
//     the limited language, so that recursion is a definite ⊥ on both sides of the adequacy
//     properties instead of running out of fuel);
//   - binders are named apart by their depth (y1, y2, ... and f1, f2, ...): no shadowing.
// Size is term_size (nodes as a tree; an if counts its guard's nodes). Terms are built
// annotated, as the type checker elaborates them.
#include <string>
#include <utility>
#include <vector>

#include "generators/core/sized_enumeration.hpp"
#include "syntax/simple_diff/ast.hpp"

namespace adsem::simple_diff::gen {

struct EnumFunction {
  std::string name;
  Type param, result;
};

// Φ | Γ ⊢ _ : A (a term), or Φ | Γ ⊢ _ (a boolean term B, when `boolean`).
struct EnumSort {
  bool boolean = false;
  std::vector<std::pair<std::string, Type>> gamma; // Γ, innermost last
  std::vector<EnumFunction> phi;                   // Φ, innermost last
  Type type;                                       // A (null for a boolean term)
  int depth = 0;                                   // binders above: the next one is y<depth+1>
};

struct EnumGrammar {
  using Sort = EnumSort;
  using Term = simple_diff::Term;
  std::string key(const Sort& s) const;
  std::vector<adsem::gen::EnumProduction<Sort, Term>> productions(const Sort& s) const;
};

using TermEnumeration = adsem::gen::SizedEnumeration<EnumGrammar>;

// The literals, the type universe, and the points of x the enumeration checks.
const std::vector<double>& enum_literals();
const std::vector<Type>& enum_types();
// x : real ⊢ _ : real, the sort of the programs the properties take.
EnumSort enum_program_sort();

} // namespace adsem::simple_diff::gen
