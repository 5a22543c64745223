#pragma once
// Symbolic evaluation φ | ρ ⊢ M ⇝ C (seed 003 Figs. 4-5, lines 384-398) in the algorithmic
// reading of spec §4.6: every redex in non-tail position is reduced to a value, its trace bound
// by `let z:T_V = C in ...` (S-ctx) and its value put in ρ so that later guards can be decided;
// the redex in tail position is only traced. Control (if, letrec, calls, rd) disappears from
// the trace; variables are never replaced by their values (spec P-2). Each rule's result is one
// function; the book (rules.cpp) says when it fires.
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff::rules {

using SRedex = Symbolic::Redex;
SymResult s_val(Machine&, const SRedex&, const RuleInfo&);
SymResult s_add(Machine&, const SRedex&, const RuleInfo&);
SymResult s_op(Machine&, const SRedex&, const RuleInfo&);
SymResult s_let(Machine&, const SRedex&, const RuleInfo&);
SymResult s_fst(Machine&, const SRedex&, const RuleInfo&);
SymResult s_snd(Machine&, const SRedex&, const RuleInfo&);
SymResult s_ift(Machine&, const SRedex&, const RuleInfo&);
SymResult s_iff(Machine&, const SRedex&, const RuleInfo&);
SymResult s_letrec(Machine&, const SRedex&, const RuleInfo&); // S-letrec and L-sletrec
SymResult s_call(Machine&, const SRedex&, const RuleInfo&);   // S-call and L-scall
SymResult s_rd(Machine&, const SRedex&, const RuleInfo&);
Term s_ctx(Machine&, const SymbolicContext::Redex&, const RuleInfo&);
bool s_ctxb(Machine&, const SymbolicGuard::Redex&, const RuleInfo&);

} // namespace adsem::simple_diff::rules
