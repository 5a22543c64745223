#pragma once
// The strategy: leftmost call-by-value reduction of closed terms (the operands of a redex are
// values, evaluated left to right), and the walk of the macro D, both through the book.
#include "semantics/dual_numbers/relations.hpp"

namespace adsem::dual_numbers {

// One step of t, or null when t is a value. Throws AdsemError(eval) on a stuck term and
// AdsemError(fuel) past the machine's budget.
Term step(Machine& machine, const Term& t);
// Steps until a value.
Term evaluate(Machine& machine, const Term& t);
// D t, clause by clause (no steps taken; each clause recorded for rule coverage).
Term macro(Machine& machine, const Term& t);

} // namespace adsem::dual_numbers
