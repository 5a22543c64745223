#pragma once
// The direct "overloading" implementation of Drev (seed 001 §8, L629-641; spec §4.2 end): the
// source term itself is evaluated, with every real a dual number (r, Zero | Var id) and the run's
// DeltaState (machine.hpp) as the growable tape. It is the source machine with rules of its
// book overloaded, a patch:
//   E-Real      r ⇓ (r, Zero)                                   as Drev{r} = pure (r, Zero)
//   E-Apply-Op  op applied to ((x1, u1), (x2, u2)) records d = Add_j (Scale (∂_j op x) u_j) and
//               gives (op x, Var d)                             as Drev{op} (Fig. 9, Fig. 14)
// and, for the extension sumV (spec §9.12), E-Apply-SumV records d = Add_i u_i as Drev{sumV}.
// The partials come from the table Drev{op} is built from (derivative_rules.hpp), computed by the
// base book's evaluation of the entry's terms, as Drev{op}'s target computes them. Every other
// rule is the base book's own: E-App runs the function before the argument, E-Pair the first
// component first, E-Apply-Build the elements in index order, which are Drev's orders (its
// do-blocks, L456-470, and sequence, L856), so the tape is the translated program's, binding for
// binding (property overloading-tape-agrees).
#include "semantics/delta_reverse/machine.hpp"
#include "semantics/delta_reverse/rules.hpp"

namespace adsem::delta_reverse {

// The results of the two overloaded entries (the patch is rules.hpp's overloading_implementation).
// E-Real: r ⇓ (r, Zero).
Next e_real_dual(Machine&, const SourceEval::Redex& r, const RuleInfo&);
// E-Apply-Op: δ_op on dual numbers, recording on m's tape; the partials evaluated by `base`.
Value apply_op_recording(const Rules& base, Machine& m, const Apply::Redex& r);
// E-Apply-SumV: sumV on dual numbers, recording d = Add_i u_i on m's tape as Drev{sumV} does
// (spec §9.12, an extension the spec suggests).
Value apply_sum_v_recording(Machine& m, const Apply::Redex& r);

// base patched by overloading_implementation(base).
RulesPtr overloading_rules(const RulesPtr& base);

// g <- e; g s0 on a machine whose book is overloading_rules(...): Fig. 15's run of Drev{e} in one
// runDelta, without the translation. The tape is the machine's state.
Value run_overloaded(Machine& m, const Term& e, const Value& s0);

} // namespace adsem::delta_reverse
