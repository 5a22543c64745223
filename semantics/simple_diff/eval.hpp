#pragma once
// Ordinary evaluation φ | ρ ⊢ M ⇒ V (seed 003 Figs. 2-3, lines 316-382), in the compositional
// reading of spec §4.6: the context rules O-ctx / O-ctxb are the left-to-right evaluation of the
// redex's evaluation-position subterms, whose values the redex rules below receive. Each rule's
// result is one function, named as in the paper; the book (rules.cpp) says when it fires.
#include <variant>

#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff {

// The primitives ev(op, V) and bev(pred, V) (seed 003 line 233), from the shared table
// (operations.hpp).
Value ev(const std::string& op, const Value& arg);
// ev, except that outside Dom(op) its AdsemError(domain) is returned rather than thrown (where
// ops::domain_error finds it; O-op stops the walk on it).
std::variant<Value, AdsemError> ev_unless_outside(const std::string& op, const Value& arg);
bool bev(const std::string& pred, const Value& arg);

namespace rules {

using ORedex = Ordinary::Redex;
Value o_val(Machine&, const ORedex&, const RuleInfo&);
Value o_add(Machine&, const ORedex&, const RuleInfo&);
Value o_op(Machine&, const ORedex&, const RuleInfo&);
Value o_let(Machine&, const ORedex&, const RuleInfo&);
Value o_fst(Machine&, const ORedex&, const RuleInfo&);
Value o_snd(Machine&, const ORedex&, const RuleInfo&);
Value o_ift(Machine&, const ORedex&, const RuleInfo&);
Value o_iff(Machine&, const ORedex&, const RuleInfo&);
Value o_letrec(Machine&, const ORedex&, const RuleInfo&); // O-letrec and L-letrec
Value o_call(Machine&, const ORedex&, const RuleInfo&);   // O-call and L-call
Value o_rd(Machine&, const ORedex&, const RuleInfo&);
bool o_pred(Machine&, const Boolean::Redex&, const RuleInfo&);
bool o_bval(Machine&, const Boolean::Redex&, const RuleInfo&);

} // namespace rules
} // namespace adsem::simple_diff
