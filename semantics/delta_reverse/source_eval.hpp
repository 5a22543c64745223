#pragma once
// The results of the machine's rules in the book (rules.cpp): source evaluation (spec §4.1, the
// E-rules), target terms (spec §4.2: computations, Delta, Delta2 and δS constructor terms), the
// polytypic operations on δS (Fig. 5, spec §4.3), δ_op, and the monad (Fig. 10, L494-537); and
// what each one's trace line shows.
#include <string>

#include "semantics/delta_reverse/machine.hpp"

namespace adsem::delta_reverse::source_rules {

using SRedex = SourceEval::Redex;

Next e_var(Machine& m, const SRedex& r, const RuleInfo&);
Next e_lam(Machine& m, const SRedex& r, const RuleInfo&);
Next e_app(Machine& m, const SRedex& r, const RuleInfo&);
Next e_let(Machine& m, const SRedex& r, const RuleInfo&);
Next e_pair(Machine& m, const SRedex& r, const RuleInfo&);
Next e_fst(Machine& m, const SRedex& r, const RuleInfo&);
Next e_snd(Machine& m, const SRedex& r, const RuleInfo&);
Next e_inl(Machine& m, const SRedex& r, const RuleInfo&);
Next e_inr(Machine& m, const SRedex& r, const RuleInfo&);
bool scrutinee_inl(const Machine&, const SRedex& r);
bool scrutinee_inr(const Machine&, const SRedex& r);
Next e_case_inl(Machine& m, const SRedex& r, const RuleInfo&);
Next e_case_inr(Machine& m, const SRedex& r, const RuleInfo&);
Next e_real(Machine& m, const SRedex& r, const RuleInfo&);
Next e_leaf(Machine& m, const SRedex& r, const RuleInfo&);
Next e_op(Machine& m, const SRedex& r, const RuleInfo&);
Next e_comp(Machine& m, const SRedex& r, const RuleInfo&);
Next e_delta(Machine& m, const SRedex& r, const RuleInfo&);
// The trace detail of the E-rules: the term, cut to 100 characters.
std::string term_excerpt(const Machine&, const SRedex& r);

Value dense_zero(Machine& m, const DenseOp::Redex& r, const RuleInfo&);
Value dense_oplus(Machine& m, const DenseOp::Redex& r, const RuleInfo&);
Value dense_otimes(Machine& m, const DenseOp::Redex& r, const RuleInfo&);

Value apply_op(Machine& m, const Apply::Redex& r, const RuleInfo&);
std::string op_name(const Machine&, const Apply::Redex& r);

RunNext m_pure(MonadRun& c, const Monad::Redex& r, const RuleInfo&);
RunNext m_bind(MonadRun& c, const Monad::Redex& r, const RuleInfo&);
bool is_delta(const MonadRun&, const Monad::Redex& r);
RunNext m_delta_let(MonadRun& c, const Monad::Redex& r, const RuleInfo&);
// The trace detail of M-DeltaLet: "id = rhs".
std::string new_binding(const MonadRun& c, const Monad::Redex& r);

} // namespace adsem::delta_reverse::source_rules
