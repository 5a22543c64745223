#pragma once
// RapidCheck generators of well-typed terms BY CONSTRUCTION (spec §10): gen_src (§10.1) builds
// source terms x1..xn : R ⊢ t : R with sharing, pairs, β-redexes, higher-order arguments, Church
// iteration and partial primitives near their boundary; gen_lin (§10.2) builds closed terms of
// the linear calculus (linear λ, linear application and ES, sums, zeros, (17)-redexes). Every
// choice is a RapidCheck value (so the choices shrink), and rc::gen::shrink adds typed shrinks
// (replace a subterm by a numeral / a same-typed subterm, inline a let, contract a β-redex,
// numerals towards 0 and 1), each kept only if the result has the original type.
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/typecheck.hpp"

namespace adsem::linear_negation::gen {

struct Source {
  Term body;                       // elaborated, x1..xn : R ⊢ body : R
  std::vector<std::string> inputs; // x1..xn
  std::vector<double> point;       // r
  Context context() const;
  Term closed() const; // body[x1 := r1]…
};

// A source program with 1..max_inputs inputs and a point in [-2, 2]^n.
rc::Gen<Source> source(int max_inputs = 3);
// A first-order source program (a computational graph after groundify): lets, +, primitives.
rc::Gen<Source> graph(int max_inputs = 3);
// A closed term of the linear calculus at R, R^2, R -o R or R -o R^2 (elaborated).
rc::Gen<Typed> closed_linear();
// A closed term whose type is Euclidean (R or R^2) (elaborated).
rc::Gen<Typed> closed_euclidean();

// ---- for user rules (properties/linear_negation/rule_adapter.*) ----
using VarScope = std::vector<std::pair<std::string, Type>>;
// An open term Γ ⊢ t : A (not elaborated) over `scope` (exponential variables), of depth about
// `depth`, by gen_src's constructions (gen_lin's for R^⊥d); its leaves may also use the scope's
// variables of any type through an eliminator (use_of), so a hole variable h : U in the scope can
// sit anywhere a leaf can: under let, λ, pair patterns, in arguments of primitives, in shared
// and higher-order functions. Source constructs only unless A or the scope mention R^⊥d.
// `counter` seeds the names of its own binders. Call inside a RapidCheck property or generator
// (every choice is a RapidCheck value).
Term term_of(const VarScope& scope, const Type& a, int depth, int counter);
// A real-typed use of t : A (R: t; A × B: a pair pattern; A -> B and R^⊥d: an application).
Term use_of(const Term& t, const Type& a, const VarScope& scope, int depth, int counter);

// Typed shrinks of t (in Γ, keeping its type).
std::vector<Term> shrinks(const Term& t, const Context& gamma, bool source);
// Constructs t contains: "let", "let-pair", "lambda", "application", "pair", "sum", "primitive",
// "sharing", "higher-order", "linear", "partial-primitive".
std::vector<std::string> tags_of(const Term& t);

// How RapidCheck shows the values drawn from these generators (found by argument-dependent
// lookup): a trial that throws before it reports its input is recorded with this text
// (properties/core/campaign.cpp, drawn_values_text); without it RapidCheck prints "<???>".
void showValue(const Source& s, std::ostream& os); // x1, … |- t at x1 = r1, …

} // namespace adsem::linear_negation::gen

namespace adsem::linear_negation {
void showValue(const Typed& t, std::ostream& os); // t : A
void showValue(const Term& t, std::ostream& os);
} // namespace adsem::linear_negation
