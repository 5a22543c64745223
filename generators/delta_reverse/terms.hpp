#pragma once
// RapidCheck generators of well-typed source terms, BY CONSTRUCTION (type-directed, spec §10):
// term(Γ, A, d) only ever builds terms of type A in Γ. Every choice is a RapidCheck draw and the
// simplest production is choice 0 (a variable of the type, a literal, the introduction form), so
// RapidCheck's shrinking of the choices is typed shrinking: subterms shrink to variables or
// literals of the same type, lets and branches disappear, literals shrink toward 0 and 1. Sized by
// depth (no recursion: every term terminates, §9.15).
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "semantics/delta_reverse/values.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

namespace adsem::delta_reverse::gen {

struct MainExpression {
  Term term; // closed, e : S → T
  Type s, t;
  std::vector<std::string> tags;
};

struct Options {
  int depth = 3;
  bool real_output = false;  // T = Real
  bool sums_in_input = true; // S may contain a sum
  bool partial_primitives = true;
  int min_helpers = 0; // helpers let-bound in front of the main λ: min_helpers..2
  // Vectors inside the program (§10.2): build[A] (n, λi. e) with n in 2..4, index[A] (v, j) with
  // j in 0..1 (always in range), let-bound vectors of reals, pairs and functions. S and T stay
  // first-order without vectors (the wrappers' types, §11). Off: the draws are as before.
  bool arrays = false;
  // Extra free variables, visible in every generated subterm (helpers and body): the hole of a
  // user rule's context (check-rule, properties/delta_reverse/rule_adapter.hpp). The result is
  // closed except for these.
  Context scope = {};
};

// A closed main expression e : S → T, S and T first-order (L111-121): helpers let-bound in front
// of the main λ (L117-121), sometimes real computations before the λ (Ex. 12).
rc::Gen<MainExpression> main_expression(Options options = {});
// A term of type a in context gamma.
rc::Gen<Term> term(Context gamma, Type a, int depth = 3);
// A closed term of a type drawn from a pool (functions, sums, products included).
rc::Gen<Typed> closed_term(int depth = 3);
// A value of first-order type t: reals uniform in [-2, 2] (spec §10 "Values for S"), ints in
// [-5, 5], tags 50/50.
rc::Gen<Value> value_of(Type t);
// A value shaped like v (same tags and leaves), reals fresh: tangents ds and cotangents dt.
rc::Gen<Value> tangent_like(Value v);
// A Delta term of the Drev layer (L489-495): Zero | Scale(r, d) | Add(d, d) | Var(i), the ids
// drawn from `ids` (none: no Var), coefficients a literal or a Real variable of `scope`. Choice 0
// is Zero (shrinks to Zero).
rc::Gen<Term> delta_term(std::vector<std::int64_t> ids, Context scope, int depth = 2);
// Source types for contexts and translations (first-order and higher-order).
const std::vector<Type>& type_pool();

// Constructs the term contains: array (build or index), branch-on-real, case, higher-order, let,
// shared-let.
std::vector<std::string> tags_of(const Term& t);

// How RapidCheck shows the values drawn from these generators (found by argument-dependent
// lookup): a trial that throws before it reports its input is recorded with this text
// (properties/core/campaign.cpp, drawn_values_text); without it RapidCheck prints "<???>".
void showValue(const MainExpression& m, std::ostream& os); // e : S -> T

} // namespace adsem::delta_reverse::gen

namespace adsem::delta_reverse {
void showValue(const Typed& t, std::ostream& os); // e : A
void showValue(const Term& t, std::ostream& os);
void showValue(const Value& v, std::ostream& os);
} // namespace adsem::delta_reverse
