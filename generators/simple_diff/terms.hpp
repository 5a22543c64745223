#pragma once
// RapidCheck generators of well-typed simple-diff terms, by construction (spec §10): a
// type-directed builder picks, for the wanted type, a construct whose result has that type
// (variables, literals, +, ops, domain-safe and near-boundary partial ops, let, pairs and
// projections, if on `less`, letrec with a decreasing counter, non-recursive functions, calls,
// rd, nested rd, grad and fd sugar). Every term is built annotated as the type checker would
// elaborate it, and not checked again per draw (tests/simple_diff/generator_test.cpp checks
// it). Shrinking is typed: a subterm is replaced by a literal of its type, an if by a branch, a
// binding dropped or replaced, literals made simpler; each candidate is kept only if it still
// type-checks.
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "syntax/simple_diff/ast.hpp"

namespace adsem::simple_diff::gen {

// Γ = {x : T} ⊢ term : type.
struct OpenTerm {
  std::string x = "x";
  Type t;
  Term term;
  Type type;
  // Further variables of Γ (user-rule instances), and whether x : T is in Γ at all.
  std::vector<std::pair<std::string, Type>> scope = {};
  bool has_x = true;
};

// Γ of an open term: {x : T} (when has_x) followed by its scope.
std::vector<std::pair<std::string, Type>> gamma_of(const OpenTerm& t);

struct TermOptions {
  bool real_result = false; // the result type is real (for gradients)
  Type result = nullptr;    // the result type, when given (overrides real_result)
  bool trace_only = false;  // only trace-term formers (no if, letrec, calls, rd): seed 003 line 261
  int max_size = 40;        // node budget at the largest RapidCheck size
  Type param = nullptr;     // the type T of x, when given (else real or real^2)
  // Sometimes a recursive function whose counter does not decrease (spec §10 "possibly divergent
  // recursion (tests of ⊥)"): for the limited language M^(n), where both sides must agree on ⊥.
  bool divergent = false;
  // Γ besides x : T (later entries shadow earlier ones); no_x leaves x : T out of Γ.
  std::vector<std::pair<std::string, Type>> scope = {};
  bool no_x = false;
  std::string x = "x"; // the name of x
};

rc::Gen<OpenTerm> open_term(TermOptions options = {});
// A point for x : T: reals on a grid of step 1/8 in [-3, 3] (exact boundary hits possible, rare).
rc::Gen<std::vector<double>> point(int dimension);
// A closed value's coordinates in [-2, 2] (cotangents, tangents).
rc::Gen<std::vector<double>> direction(int dimension);

// The constructs the term contains: "rd", "nested-rd", "letrec", "if", "call", "pair", "let",
// "partial-prim".
std::vector<std::string> construct_tags(const Term& term);

// Typed shrink candidates (each type-checks under Γ = {x : T} with the same type).
std::vector<OpenTerm> shrinks(const OpenTerm& t);

// How RapidCheck shows the values drawn from these generators (found by argument-dependent
// lookup): a trial that throws before it reports its input is recorded with this text
// (properties/core/campaign.cpp, drawn_values_text); without it RapidCheck prints "<???>".
void showValue(const OpenTerm& t, std::ostream& os); // x : T |- M : A

} // namespace adsem::simple_diff::gen
