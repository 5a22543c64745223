#pragma once
// Ordinary evaluation φ | ρ ⊢ M ⇒ V (seed 003 Figs. 2-3, lines 316-382), in the compositional
// reading of spec §4.6: the context rules O-ctx / O-ctxb are the left-to-right evaluation of the
// redex's evaluation-position subterms, whose values the redex rules below receive. Each rule
// is one function, named as in the paper (Fig. 8's L-letrec / L-call are the letrec_n cases of
// o_letrec / o_call).
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff::rules {

Value o_add(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_op(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_let(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_fst(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_snd(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_ift(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_iff(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_letrec(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_call(Machine&, const FunEnv&, const Node&, std::span<const Value>);
Value o_rd(Machine&, const FunEnv&, const Node&, std::span<const Value>);
bool o_pred(Machine&, const Node&, const Value&);

// The primitive hooks' defaults (the shared table, operations.hpp).
Value ev(const std::string& op, const Value& arg);
bool bev(const std::string& pred, const Value& arg);

} // namespace adsem::simple_diff::rules
