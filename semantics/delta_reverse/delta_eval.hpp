#pragma once
// Interpreting Deltas (seed 001 §7, Fig. 10, L501-597; Fig. 8 for Delta2):
//  - run_delta: runDelta's fold, one Let per binding, the oldest outermost (Fig. 10)
//  - eval_map:  Fig. 10's eval into a DeltaMap, body first, "Nothing" skips an unused id
//  - sweep:     §7.3's mutable array indexed by id, an iterative backward sweep
//  - eval2:     Fig. 8's eval_2 on unshared Delta2 trees (exponential on shared data: P18)
//  - dense:     the meaning ⟦u⟧_D γ ∈ R^a of Fig. 13 (L739-741), an oracle independent of eval
// Every node visit is a step of ledger.hpp (visits are the cost the efficiency properties count).
// runDelta, eval, the sweep and eval_2 choose their rules from the book (relations.hpp: RunDelta,
// Wrap, DeltaEval, LetLookup, Sweep, SweepTape, TapeBinding, DeltaEval2); the dense meaning is
// fixed (an oracle).
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "semantics/delta_reverse/ledger.hpp"
#include "semantics/delta_reverse/rules.hpp"
#include "semantics/delta_reverse/values.hpp"
#include "syntax/core/depth_guard.hpp"
#include "syntax/delta_reverse/nesting.hpp"

namespace adsem::delta_reverse {

// The context of eval's rules (Fig. 10): the map m, updated in place (it is used linearly, L374).
struct MapEval {
  const Rules& rules;
  DeltaMap& m;
  Ledger& ledger;
  DepthBudget depth{max_source_nesting, 0, ErrorKind::eval};
  // eval x u m: the rule for u's constructor selected from the book and fired.
  void eval(double x, const Delta& u);
  void eval_here(double x, const Delta& u); // eval on the current stack
};
// eval x (Let id u1 u2) m's lookup for one Let of the spine (Fig. 10): Nothing skips the id,
// Just x' evaluates u1 with x' after deleting id.
void eval_let_binding(MapEval& context, const DeltaNode& let);
// The Lets of runDelta's nest, outermost first, and the Delta under them.
std::pair<std::vector<const DeltaNode*>, Delta> let_spine(const Delta& u);

// The context of the array sweep's rules (§7.3): grad[0..next) with touched flags, and the stack
// of the rhs trees still to sweep.
struct ArraySweep {
  const Rules& rules;
  std::vector<double>& grad;
  std::vector<char>& touched;
  Ledger& ledger;
  std::vector<std::pair<double, const DeltaNode*>> stack = {};
  // Sweeps x through u: the rule for each node selected from the book and fired.
  void sweep(double x, const DeltaNode* u);
};
// One binding of the tape: skipped when its id is untouched, else swept with its adjoint.
void sweep_binding(ArraySweep& context, const std::pair<std::int64_t, Delta>& binding);
// runDelta's wrap: one binding around the Delta built so far.
Delta wrap_binding(DeltaFold& fold, const std::pair<std::int64_t, Delta>& binding,
                   const Delta& body);

// The context of eval_2's rules (Fig. 8): the vector v, updated in place (used linearly), and the
// stack of the subtrees still to visit.
struct Delta2Walk {
  const Rules& rules;
  std::vector<double>& acc;
  Ledger& ledger;
  std::vector<std::pair<double, const DeltaNode*>> stack = {};
  // eval_2 x u v: the rule for each node selected from the book and fired.
  void eval2(double x, const DeltaNode* u);
};

// runDelta: foldl wrap d bs (bs newest first) = Let id1 rhs1 (... (Let idk rhsk d)), id1 < ... <
// idk (the book's entry runDelta).
Delta run_delta(const Binds& binds, const Delta& result, Ledger& ledger,
                const Rules& rules = *paper_rules());

// eval x u m (Fig. 10); m is updated in place (it is used linearly, L374).
void eval_map(double x, const Delta& u, DeltaMap& m, Ledger& ledger,
              const Rules& rules = *paper_rules());

// §7.3: grad[0..next) with touched flags; accumulate dt into `result`, then bindings from the
// newest to the oldest; returns grad (grad[i] for untouched ids is 0).
std::vector<double> sweep(double dt, const Delta& result, const Binds& binds, std::int64_t next,
                          Ledger& ledger, const Rules& rules = *paper_rules());

// The results of the book's entries for runDelta, eval and the sweep (rules.cpp).
namespace delta_rules {
Delta run_delta(DeltaFold& fold, const RunDelta::Redex& r, const RuleInfo&);
Delta wrap(DeltaFold&, const Wrap::Redex& r, const RuleInfo&);
void let_nothing(MapEval&, const LetLookup::Redex&, const RuleInfo&);
void let_just(MapEval& c, const LetLookup::Redex& r, const RuleInfo&);
void tape_skip(ArraySweep&, const TapeBinding::Redex&, const RuleInfo&);
void tape_binding(ArraySweep& c, const TapeBinding::Redex& r, const RuleInfo&);
void eval2_zero(Delta2Walk&, const DeltaEval2::Redex&, const RuleInfo&);
void eval2_onehot(Delta2Walk& c, const DeltaEval2::Redex& r, const RuleInfo&);
void eval2_scale(Delta2Walk& c, const DeltaEval2::Redex& r, const RuleInfo&);
void eval2_add(Delta2Walk& c, const DeltaEval2::Redex& r, const RuleInfo&);
void eval_zero(MapEval&, const DeltaEval::Redex&, const RuleInfo&);
void eval_scale(MapEval& c, const DeltaEval::Redex& r, const RuleInfo&);
void eval_add(MapEval& c, const DeltaEval::Redex& r, const RuleInfo&);
void eval_var(MapEval& c, const DeltaEval::Redex& r, const RuleInfo&);
void eval_let(MapEval& c, const DeltaEval::Redex& r, const RuleInfo&);
void sweep_zero(ArraySweep&, const Sweep::Redex&, const RuleInfo&);
void sweep_scale(ArraySweep& c, const Sweep::Redex& r, const RuleInfo&);
void sweep_add(ArraySweep& c, const Sweep::Redex& r, const RuleInfo&);
void sweep_var(ArraySweep& c, const Sweep::Redex& r, const RuleInfo&);
void sweep_tape(ArraySweep& c, const SweepTape::Redex& r, const RuleInfo&);
} // namespace delta_rules

// eval_2 x u v (Fig. 8): v_i += x for OneHot i (1-based), u1 before u2.
void eval2(double x, const Delta& u, std::vector<double>& acc, Ledger& ledger,
           const Rules& rules = *paper_rules());

// ⟦u⟧_D γ (Fig. 13 L739-741, spec §5.3): Zero 0, Scale r u = r ⟦u⟧, Add sum, Var i = γ(i),
// Let i u1 u2 = ⟦u2⟧ γ[i ↦ ⟦u1⟧ γ]. Unbound ids are an error.
Eigen::VectorXd dense_meaning(const Delta& u, const std::map<std::int64_t, Eigen::VectorXd>& gamma,
                              int dimension);
// The gradient row of the real carrying `result` on a tape: inputs 1..a are e_i, each binding in
// allocation order gets the meaning of its rhs (spec §5.3 oracle 4, P9).
Eigen::VectorXd dense_tape(const Binds& binds, const Delta& result, int inputs);

} // namespace adsem::delta_reverse
