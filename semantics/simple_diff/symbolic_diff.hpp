#pragma once
// Symbolic differentiation of trace terms, W.R_V(x:T. C) (seed 003 Fig. 6, lines 400-436): the
// result of each clause is one function, and the linear-size variant R-fast of spec §9 P-1(b)
// (symbolic_diff_linear.cpp); the book (rules.cpp) says when each fires. Fig. 6 assumes
// x ∉ FV(V, W) and that all binders of C are distinct; Machine::differentiate renames C apart
// before applying either.
#include <functional>

#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff {

// C with every binder renamed to a fresh name and the free variable `x` renamed to `x_new`
// (spec P-3). Throws if C is not a trace term.
Term rename_apart(Machine& m, const Term& c, const std::string& x, const std::string& x_new);

// W.op_r(D) = op_r(<D, W>_{S,U}) for op : S → U (seed 003 line 237): the term R-op and R-fast
// build for the pullback of op.
using OpRTerm = std::function<Term(const std::string& op, const Term& primal, const Term& cotangent,
                                   const Type& s, const Type& u)>;

namespace rules {
using DRedex = Derivative::Redex;
Term r_var(Machine&, const DRedex&, const RuleInfo&);
Term r_const(Machine&, const DRedex&, const RuleInfo&);
Term r_add(Machine&, const DRedex&, const RuleInfo&);
Term r_let(Machine&, const DRedex&, const RuleInfo&);
Term r_unit(Machine&, const DRedex&, const RuleInfo&);
Term r_pair(Machine&, const DRedex&, const RuleInfo&);
Term r_fst(Machine&, const DRedex&, const RuleInfo&);
Term r_snd(Machine&, const DRedex&, const RuleInfo&);
// R-op and R-fast with the pullback term W.op_r(D) built by `op_r`.
Rule<Derivative>::Result r_op(OpRTerm op_r);
Rule<TraceDerivative>::Result r_fast(OpRTerm op_r);
// The paper's W.op_r(D).
Term op_r_term(const std::string& op, const Term& primal, const Term& cotangent, const Type& s,
               const Type& u);
} // namespace rules

// The arity op : S → U from the primitive table (throws for an unknown op).
std::pair<Type, Type> op_arity(const std::string& op);

} // namespace adsem::simple_diff
