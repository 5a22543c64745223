#pragma once
// Bounded-exhaustive enumeration of delta-reverse programs (generators/core/sized_enumeration.hpp):
// the typing rules of seed 001, Fig. 1 (L45-86, App. A.1) and the array extension's (§10.2), read
// as a grammar over sorts Γ ⊢ _ : A, with finite choices where the rules leave one open
// (docs/enumeration.md states them):
//   - types: every type of a binder, premise or annotation is one of the universe
//     Real, Int, Real × Real, Real + Real, Real → Real, Int → Real, Vector Real;
//   - literals: 1.0 and -2.0 (the unit of mulR, a point outside log's domain); 0 and 1 of Int;
//   - primitives: addR, mulR (on Real × Real), sin, log (unary), fromInt;
//   - arrays: build[Real] (n, f) and index[Real] (v, i), n and i any Int term (an index outside
//     the vector is a domain error: a counted discard);
//   - binders are named apart by their depth (y1, y2, ...): no shadowing.
// Size is size_of (nodes as a tree): a primitive call op (a, b) counts app, op and the pair.
#include <string>
#include <utility>
#include <vector>

#include "generators/core/sized_enumeration.hpp"
#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse::gen {

struct EnumSort {
  std::vector<std::pair<std::string, Type>> gamma; // Γ, innermost last
  Type type;                                       // A
  int depth = 0;                                   // binders above: the next one is y<depth+1>
};

struct EnumGrammar {
  using Sort = EnumSort;
  using Term = delta_reverse::Term;
  std::string key(const Sort& s) const;
  std::vector<adsem::gen::EnumProduction<Sort, Term>> productions(const Sort& s) const;
};

using TermEnumeration = adsem::gen::SizedEnumeration<EnumGrammar>;

const std::vector<Type>& enum_types();
// x : Real ⊢ _ : Real: the bodies of the main expressions λx:Real. e the properties take.
EnumSort enum_body_sort();

} // namespace adsem::delta_reverse::gen
