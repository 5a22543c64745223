#pragma once
// Conquer: the pullback along an elementary term, rows 9-20 of seed 000 Fig. 3 (L240-248; prose
// L263-339; spec §4.4), each row's result under its paper number. The strategy (conquer.cpp,
// Machine::fire_row) has drawn the tangent variable v and derived the row's premise; the book
// (rules.cpp) states each row's side condition. Every result has the shape (λv.S)*·(ω W), λv.S
// the Jacobian of λy.E at V, W = E[V/y] (Remark 3.5, L275); row 17 gives a new redex.
#include "semantics/pullback/relations.hpp"

namespace adsem::pullback {

// a is an atom rooted at y (y or y_p)
bool is_y_atom(const Term& a, const std::string& y);

namespace rules {

Term row_9(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_10a(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_10b(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_11(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_12(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_13a(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_13b(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_13c(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_14(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_15(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_16a(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_16b(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_16c(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_17(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_18(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_19a(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_19b(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_19c(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_20a(Machine&, const Pullback::Redex&, const RuleInfo&);
Term row_20b(Machine&, const Pullback::Redex&, const RuleInfo&);

} // namespace rules

} // namespace adsem::pullback
