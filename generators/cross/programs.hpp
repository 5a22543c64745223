#pragma once
// Random well-typed cross programs (syntax/cross/program.hpp), well typed by construction, sized,
// with typed shrinking.
//  - first_order_program(): let (real and tuple binders), pairs, fst/snd and the smooth shared
//    primitives over 1-3 real inputs; what all five calculi can express.
//  - higher_order_program(): adds closures (let-bound λs capturing the inputs and outer lets),
//    the combinators twice and compose applied to closures, and Church lists
//    λc.λn. c e1 (c e2 (... n)) folded with a closure: what the four calculi with functions
//    (perturbative, linear-negation, delta-reverse, pullback) can express.
#include <ostream>
#include <vector>

#include <rapidcheck.h>

#include "syntax/cross/program.hpp"

namespace adsem::cross {

rc::Gen<Program> first_order_program();
rc::Gen<Program> higher_order_program();

// One-step simpler well-typed programs: a subterm replaced by one of its children, by the input
// x0 or by the literal 1 (each candidate type-checked; the ill-typed ones are dropped).
std::vector<Program> simpler(const Program& p);

// How RapidCheck shows a drawn program.
void showValue(const Program& p, std::ostream& os);

} // namespace adsem::cross
