#pragma once
// RapidCheck generators of well-typed pullback-language terms, BY CONSTRUCTION (type-directed,
// spec §10 [ID-18]): every production builds a term of the requested type through the smart
// constructors, so samples are well typed (strict lin for dual maps: genLin) with typed zeros.
// Sized by depth. Every choice is a RapidCheck draw, so RapidCheck's shrinking of the choices
// shrinks terms while keeping them well typed (a smaller choice picks a leaf: a variable, a
// numeral, a typed zero).
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "syntax/pullback/ast.hpp"

namespace adsem::pullback::gen {

// A gradient query ((Ω λy:σ.P)·ω) V (spec §10 templates 1-4).
struct Query {
  std::string y;
  Type sigma;
  Term body; // P : tau, y free
  Type tau;
  Term omega;                    // a closed 1-form, or the free variable om : Ω τ (symbolic)
  Term point;                    // V : σ, closed
  std::vector<double> cotangent; // ω = Omega[c] (constant 1-form), when numeric
  bool symbolic = false;
  bool straight_line = false; // only atoms, numerals, pairs, projections, primitives, sums
  Term term() const;
};

// Template 1 (+ 2): Euclidean σ and τ, numeric ω; local λs and β-redexes unless straight_line.
rc::Gen<Query> first_order_query(bool straight_line = false, int depth = 3);
// Template 1 whose body starts with open stages: a dual map and a pullback that mention y without
// needing a Hessian, one under a free variable bound outside the derivative (rows 16b, 16c, 17
// and Σ3 of seed 000 Fig. 3 and §3.4 reach them only so; spec §10 "Coverage feedback").
rc::Gen<Query> open_query();
// A straight-line body of about `stages` primitive applications (cost over growing programs).
Query chain_query(int stages, std::uint64_t seed);
// chain_query(k, seed) for each k of `lengths`, sharing their common stages.
std::vector<Query> chain_queries(const std::vector<int>& lengths, std::uint64_t seed);
// Template 3: functional input (σ = R -> R, Church lists); the result is a symbolic dual.
rc::Gen<Query> functional_query();
// Template 4: free om : Ω τ.
rc::Gen<Query> symbolic_query();
// Template 5 and everything else: closed terms of mixed types (raw terms, dual maps, covectors,
// Jacobians at points, sums, queries of every template).
rc::Gen<Term> closed_term();
// A term S : ρ with x ∈ lin(S) (strict), free variable x : σ only (genLin, spec §10).
rc::Gen<Term> linear_term(const std::string& x, Type sigma, Type rho);
// A term of type σ* (closed): covectors, dual maps, pullback queries, sums.
rc::Gen<Term> dual_term();
// A body P : τ in the context y : σ (diff-friendly), for substitution and A-normalisation.
rc::Gen<Term> body(const std::string& y, Type sigma, Type tau);

// [user rules] A diff-friendly term of Euclidean type tau over the given variables (the
// generator uses every atom of type R or R² reachable from them, under its own let and λ binders);
// binder names are numbered from first_name + 1, so that terms built by separate calls of one
// trial do not reuse each other's binder names. linear_term_named: linear_term with that naming.
rc::Gen<Term> euclid_over(std::vector<std::pair<std::string, Type>> scope, Type tau, int first_name,
                          int depth = 3);
rc::Gen<Term> linear_term_named(const std::string& x, Type sigma, Type rho, int first_name);

// Constructs a term contains, for campaign statistics.
std::vector<std::string> tags_of(const Term& t);

// How RapidCheck shows the values drawn from these generators (found by argument-dependent
// lookup): a trial that throws before it reports its input is recorded with this text
// (properties/core/campaign.cpp, drawn_values_text); without it RapidCheck prints "<???>".
void showValue(const Query& q, std::ostream& os); // ((Omega \y:s. P) @ w) V

} // namespace adsem::pullback::gen

namespace adsem::pullback {
void showValue(const Term& t, std::ostream& os);
} // namespace adsem::pullback
