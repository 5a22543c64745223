#pragma once
// The evaluator of source and target terms (spec §4.1, §4.2): big-step, call-by-value, left to
// right, with environments. The strategy is here (where evaluation goes, the loops); which rule
// fires is the book's (relations.hpp: SourceEval, DenseOp, Apply, Monad), each rule instance one
// step of the cost model (ledger.hpp, one unit of fuel). Target computations (values of type
// M A) are suspended comp(ρ, c) and run on the DeltaState by run(): pure, >>= and deltaLet of
// Fig. 10 (L494-537). Tail positions (let bodies, case branches, function bodies,
// do-continuations) loop instead of recursing, so long let-chains and long tapes do not grow the
// C++ stack.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "semantics/delta_reverse/ledger.hpp"
#include "semantics/delta_reverse/rules.hpp"
#include "semantics/delta_reverse/values.hpp"

namespace adsem::delta_reverse {

// DeltaState = (next fresh id, bindings) (Fig. 10, L496). The paper keeps the list newest first;
// here it is a growable vector in allocation order (O(1) deltaLet, spec §9.13), read back to
// front where the paper reads front to back.
struct DeltaState {
  std::int64_t next = 1;
  std::vector<std::pair<std::int64_t, Delta>> binds;
};

// Counters for the cost properties (spec §6 P17).
struct Counters {
  long real_prim_calls = 0; // applications of differentiable real primitives (§7.4 (b))
  long dense_flops = 0;     // scalar operations of Drev1's ⊕/⊗ on δS (P18)
};

class Machine {
public:
  explicit Machine(Ledger& ledger, const Rules& rules = *paper_rules())
      : rules_(rules), ledger_(ledger) {}

  Value eval(const Env& env, const Term& t);
  // A function value applied to an argument (E-App's second half): closures and primitives.
  Value apply(const Value& f, const Value& a);
  // Runs a computation value on the state (Fig. 10's m s).
  Value run(const Value& computation);
  // δ_op: the primitive's meaning on an argument value (spec §4.1).
  Value apply_prim(const std::string& op, const Value& a);

  // The rule of R (SourceEval, DenseOp, Apply, Monad) that matches the redex: its step taken
  // (traced with the rule's detail), its result returned; AdsemError(eval, "stuck: " + what) at
  // `pos` when none matches.
  template <class R>
  typename R::Output fire(typename R::Context& context, const typename R::Redex& redex,
                          std::string_view what, std::optional<SourcePos> pos);

  // The ledger the machine's steps are taken on (a nested machine may share it: overloading.cpp).
  Ledger& ledger() const { return ledger_; }

  DeltaState state;
  Counters counters;
  int dense_dimension = 0; // a, for zeroS (Drev1_S)

private:
  // eval on the current stack (eval moves to the large stack when the nesting gets deep)
  Value eval_in_place(const Env& env, const Term& t);

  const Rules& rules_;
  Ledger& ledger_;
  int depth_ = 0;
};

// The context of the monad's rules: the machine and the stack of pending >>= continuations
// (Fig. 10: m >>= k = \s -> case m s of (r, s') -> k r s').
struct MonadRun {
  Machine& machine;
  std::vector<std::pair<Env, const Node*>> pending = {};
};

// A closed term evaluated from the empty environment.
Value eval_closed(const Term& t, Ledger& ledger, const Rules& rules = *paper_rules());

// "stuck: what" at the term's position (AdsemError(eval)).
[[noreturn]] void stuck(const std::string& what, const Term& t);

} // namespace adsem::delta_reverse
