#pragma once
// Symbolic evaluation φ | ρ ⊢ M ⇝ C (seed 003 Figs. 4-5, lines 384-398) in the algorithmic
// reading of spec §4.6: every redex in non-tail position is reduced to a value, its trace bound
// by `let z:T_V = C in ...` (S-ctx) and its value put in ρ so that later guards can be decided;
// the redex in tail position is only traced. Control (if, letrec, calls, rd) disappears from
// the trace; variables are never replaced by their values (spec P-2). One function per rule;
// Fig. 8's L-sletrec / L-scall are the letrec_n cases of s_letrec / s_call.
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff::rules {

SymResult s_add(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_op(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_let(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_fst(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_snd(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_ift(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_iff(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_letrec(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_call(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);
SymResult s_rd(Machine&, const FunEnv&, const Node&, std::span<const TermPtr>, bool);

} // namespace adsem::simple_diff::rules
