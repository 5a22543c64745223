#pragma once
// Interpreting Deltas (seed 001 §7, Fig. 10, L501-597; Fig. 8 for Delta2):
//  - run_delta: runDelta's fold, one Let per binding, the oldest outermost (Fig. 10)
//  - eval_map:  Fig. 10's eval into a DeltaMap, body first, "Nothing" skips an unused id
//  - sweep:     §7.3's mutable array indexed by id, an iterative backward sweep
//  - eval2:     Fig. 8's eval_2 on unshared Delta2 trees (exponential on shared data: P18)
//  - dense:     the meaning ⟦u⟧_D γ ∈ R^a of Fig. 13 (L739-741), an oracle independent of eval
// Every node visit fires a named rule of ledger.hpp (visits are the cost the efficiency
// properties count).
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "semantics/delta_reverse/ledger.hpp"
#include "semantics/delta_reverse/values.hpp"
#include "semantics/delta_reverse/variant.hpp"

namespace adsem::delta_reverse {

using Binds = std::vector<std::pair<std::int64_t, Delta>>; // allocation order
using DeltaMap = std::map<std::int64_t, double>;

// runDelta: foldl wrap d bs (bs newest first) = Let id1 rhs1 (... (Let idk rhsk d)), id1 < ... <
// idk. The mutant literal_get_newest_outermost builds the other nesting (Fig. 13's get, L769).
Delta run_delta(const Binds& binds, const Delta& result, Ledger& ledger, const Variant& v = {});

// eval x u m (Fig. 10); m is updated in place (it is used linearly, L374).
void eval_map(double x, const Delta& u, DeltaMap& m, Ledger& ledger, const Variant& v = {});

// §7.3: grad[0..next) with touched flags; accumulate dt into `result`, then bindings from the
// newest to the oldest; returns grad (grad[i] for untouched ids is 0).
std::vector<double> sweep(double dt, const Delta& result, const Binds& binds, std::int64_t next,
                          Ledger& ledger, const Variant& v = {});

// eval_2 x u v (Fig. 8): v_i += x for OneHot i (1-based), u1 before u2.
void eval2(double x, const Delta& u, std::vector<double>& acc, Ledger& ledger);

// ⟦u⟧_D γ (Fig. 13 L739-741, spec §5.3): Zero 0, Scale r u = r ⟦u⟧, Add sum, Var i = γ(i),
// Let i u1 u2 = ⟦u2⟧ γ[i ↦ ⟦u1⟧ γ]. Unbound ids are an error.
Eigen::VectorXd dense_meaning(const Delta& u, const std::map<std::int64_t, Eigen::VectorXd>& gamma,
                              int dimension);
// The gradient row of the real carrying `result` on a tape: inputs 1..a are e_i, each binding in
// allocation order gets the meaning of its rhs (spec §5.3 oracle 4, P9).
Eigen::VectorXd dense_tape(const Binds& binds, const Delta& result, int inputs);

} // namespace adsem::delta_reverse
