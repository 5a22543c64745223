#pragma once
// The semantics-preserving source rewrites of spec §6 P20 beyond those of metamorphic.cpp. The
// source language is pure and call-by-value without recursion (seed 001 Fig. 1 L45-86, App. A.2
// L1029-1049; spec §9.15), so each keeps the denotation wherever the original is defined. Each is
// applied at every redex of a source term in one pass and is capture-avoiding: a binder it moves
// or substitutes under is renamed to a fresh name (spec §9.7) where it could capture.
#include <string>

#include "syntax/delta_reverse/ast.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

namespace adsem::delta_reverse {

// The name child i of n is bound by (λ, let, case, do's x <- e1; App. A.1), or null.
const std::string* binder_of(const Node& n, std::size_t i);
// Does x occur free in t?
bool free_in(const std::string& x, const Term& t);

// t[s/x]: a binder of t whose name is free in s, and under which x occurs free, is renamed first.
Term substitute(const Term& t, const std::string& x, const Term& s, FreshNames& fresh);

// let-inlining: let x = e1 in e2  ->  e2[e1/x]. Destroys sharing: e1 runs once per use of x.
Term inline_lets(const Term& t);

// let-floating out of the positions call-by-value evaluates at once (function and argument of an
// application, the parts of a pair, the operand of fst, snd, inl, inr, a case's scrutinee, a
// let's right-hand side):  E[let x = e1 in e2]  ->  let x' = e1 in E[e2[x'/x]], x' fresh. The
// same primitive calls run, e1 possibly earlier.
Term float_lets(const Term& t);

// η-expansion: e  ->  \(y : A). e y, y fresh, for every subterm e : A → B that is not a λ (gamma
// types t's free variables). A non-value e then runs once per call instead of once.
Term eta_expand(const Term& t, const Context& gamma = {});

// case-of-known-constructor: case inl[B] e of inl x -> e1 | inr y -> e2  ->  let x = e in e1, and
// the same for inr.
Term known_case(const Term& t);

// Its inverse at the k-th let of t in pre-order (0-based; gamma types t's free variables), which
// makes a redex of it where the generator makes few:  let x = e1 in e2  ->
// case inl[A] e1 of inl x -> e2 | inr x -> e2, e1 : A. t itself when t has k lets or fewer.
Term plant_known_case(const Term& t, std::size_t k, const Context& gamma = {});
std::size_t let_count(const Term& t);

} // namespace adsem::delta_reverse
