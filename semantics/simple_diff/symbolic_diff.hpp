#pragma once
// Symbolic differentiation of trace terms, W.R_V(x:T. C) (seed 003 Fig. 6, lines 400-436), one
// function per rule, and the linear-size variant R-fast of spec §9 P-1(b)
// (symbolic_diff_linear.cpp). Fig. 6 assumes x ∉ FV(V, W) and that all binders of C are
// distinct; Machine::differentiate renames C apart before applying either.
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff {

// C with every binder renamed to a fresh name and the free variable `x` renamed to `x_new`
// (spec P-3). Throws if C is not a trace term.
TermPtr rename_apart(Machine& m, const TermPtr& c, const std::string& x, const std::string& x_new);

// R-fast: W.R_V(x:T. C) by A-normal form and one backward pass; linear in |C|. Not in the paper;
// its acceptance test is Theorem 6.1 (spec P-AD-1). C must already be renamed apart.
TermPtr r_fast(Machine& m, const DiffGoal& goal, const TermPtr& c);

namespace rules {
TermPtr r_var(Machine&, const DiffGoal&, const Node&);
TermPtr r_const(Machine&, const DiffGoal&, const Node&);
TermPtr r_add(Machine&, const DiffGoal&, const Node&);
TermPtr r_op(Machine&, const DiffGoal&, const Node&);
TermPtr r_let(Machine&, const DiffGoal&, const Node&);
TermPtr r_unit(Machine&, const DiffGoal&, const Node&);
TermPtr r_pair(Machine&, const DiffGoal&, const Node&);
TermPtr r_fst(Machine&, const DiffGoal&, const Node&);
TermPtr r_snd(Machine&, const DiffGoal&, const Node&);
// W.op_r(D) = op_r(<D, W>_{S,U}) for op : S → U (seed 003 line 237)
TermPtr op_r_term(const std::string& op, const TermPtr& primal, const TermPtr& cotangent,
                  const TypePtr& s, const TypePtr& u);
} // namespace rules

// The arity op : S → U from the primitive table (throws for an unknown op).
std::pair<TypePtr, TypePtr> op_arity(const std::string& op);

} // namespace adsem::simple_diff
