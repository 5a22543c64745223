#pragma once
// The relations of seed 001 whose rules are entries of delta-reverse's rule book
// (semantics/core/rule_table.hpp), and the book's type. Each relation says what its rules receive
// (the redex with what the strategy already knows) and produce; the strategies are translate.cpp
// (the walk of Dfwd, Drev1, Drev2, Drev), delta_eval.cpp (runDelta, eval, the array sweep) and
// wrappers.cpp (R{e} and lookup_S).
//
// Naming: a translation clause is "T[c]", T the translation as the paper prints it and c the
// construct of Fig. 1 it translates: x, k (a leaf literal), λ, app, let, pair, fst, snd, inl, inr,
// case, r (a real literal), op (a primitive). The machine's rules (source and target evaluation,
// the monad, eval_2, the δS operations) and the interpretation of Deltas keep the names their
// steps are counted and traced under (ledger.hpp): `E-App`, `M-Bind`, `eval-Var`, `sweep-Add`, ...
//
// Source evaluation is big-step (spec §4.1, §4.2): the machine (machine.cpp) selects the rule of
// a term when it reaches it and takes the rule's step then; the rule derives its premises (E-App:
// e1 ⇓ f, e2 ⇓ a, then the body) and returns the value, or the term in tail position for the
// machine to loop on. Where the choice of rule depends on a premise's value (case: inl or inr) or
// the cost model counts the step after the operands (deltaLet, ⊕, ⊗), the machine derives those
// premises first and hands them to the selection in the redex.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "semantics/core/rule_table.hpp"
#include "semantics/delta_reverse/ledger.hpp"
#include "semantics/delta_reverse/values.hpp"
#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

class Machine;
class Translator;
struct DeltaFold;
struct MapEval;
struct ArraySweep;

using Binds = std::vector<std::pair<std::int64_t, Delta>>; // allocation order
using DeltaMap = std::map<std::int64_t, double>;

// The dispatch index of the translations is keyed by Form; the last form is sequence.
inline constexpr std::size_t form_count = static_cast<std::size_t>(Kind::sequence) + 1;

// One clause of a translation {e} (Figs. 3, 5, 7, 9): the redex is the source term, the output
// its translation; the context is the walk, which translates subterms by the same relation.
struct TranslationClause {
  using Context = Translator;
  struct Redex {
    const Term& term;
  };
  using Output = Term;
  using Kind = adsem::delta_reverse::Kind;
  static constexpr std::size_t kind_count = form_count;
  static Kind kind(const Redex& r) { return r.term->kind; }
  static const Node& node(const Redex& r) { return *r.term; }
};
struct Dfwd : TranslationClause {};  // Fig. 3, forward dual numbers
struct Drev1 : TranslationClause {}; // Fig. 5, reverse #1 (dense tangents δS)
struct Drev2 : TranslationClause {}; // Fig. 7, reverse #2 (Delta2 trees)
struct Drev : TranslationClause {};  // Fig. 9, the monadic reverse translation

// A relation with one kind of redex (a whole tape, a whole program run).
struct WholeRelation {
  enum class Kind { whole };
  static constexpr std::size_t kind_count = 1;
  template <class Redex> static Kind kind(const Redex&) { return Kind::whole; }
};

// A relation over Delta nodes. Each entry is one step of the cost model (ledger.hpp) — `extra`
// names it, the strategy takes it — or, when `extra` is empty, counts its own steps.
struct DeltaRelation {
  using Kind = DeltaNode::Kind;
  static constexpr std::size_t kind_count = static_cast<std::size_t>(DeltaNode::Kind::onehot) + 1;
  using Extra = std::optional<Step>;
};

// The step of the cost model a rule of the machine is, and what its trace line shows after the
// step's name (nothing when `detail` is null).
template <class Context, class Redex> struct MachineStep {
  Step step;
  std::string (*detail)(const Context&, const Redex&) = nullptr;
};

// What a rule of source evaluation produces: the value, or the term in tail position (a let
// body, a case branch, a function body) with its environment, which the machine evaluates next
// in the same loop (long let-chains do not grow the C++ stack).
struct Next {
  Value value;
  Env env = nullptr;
  Term tail = nullptr;
};

// ρ ⊢ e ⇓ v for source terms and the target terms of Figs. 5, 7, 9 (spec §4.1, §4.2): the term
// and its environment; for case, the scrutinee's value (E-Case-Inl and E-Case-Inr are chosen by
// its tag).
struct SourceEval {
  using Context = Machine;
  struct Redex {
    const Env& env;
    const Term& term;
    const Value* scrutinee = nullptr;
  };
  using Output = Next;
  using Kind = adsem::delta_reverse::Kind;
  static constexpr std::size_t kind_count = form_count;
  static Kind kind(const Redex& r) { return r.term->kind; }
  static const Node& node(const Redex& r) { return *r.term; }
  using Extra = MachineStep<Machine, Redex>;
};

// A user rule of source evaluation (`--rules`, properties/delta_reverse/user_rules.hpp):
// LHS --> RHS read as "LHS ⇓ V if RHS ⇓ V", tried on the unevaluated term before the paper's rule
// for its construct. The output is σ(RHS), which the machine evaluates next in the same
// environment (a tail position); the step is counted under the rule's name. The paper has none.
struct SourceRewrite {
  using Context = Machine;
  struct Redex {
    const Env& env;
    const Term& term;
  };
  using Output = Term;
  using Kind = adsem::delta_reverse::Kind;
  static constexpr std::size_t kind_count = form_count;
  static Kind kind(const Redex& r) { return r.term->kind; }
  static const Node& node(const Redex& r) { return *r.term; }
};

// The polytypic operations on δS = R^a (Drev1_S, Fig. 5, spec §4.3) once their operands are
// evaluated: zeroS, v ⊕ w, r ⊗ w.
struct DenseOp {
  using Context = Machine;
  struct Redex {
    const Term& term;
    double r = 0.0;
    const std::vector<double>* a = nullptr;
    const std::vector<double>* b = nullptr;
  };
  using Output = Value;
  using Kind = adsem::delta_reverse::Kind;
  static constexpr std::size_t kind_count = form_count;
  static Kind kind(const Redex& r) { return r.term->kind; }
  static const Node& node(const Redex& r) { return *r.term; }
  using Extra = MachineStep<Machine, Redex>;
};

// A function value applied to an argument value (E-App's second half, and the wrappers' g s0):
// δ_op for a primitive; a closure's body is evaluated by E-App's tail position.
struct Apply {
  using Context = Machine;
  struct Redex {
    const Value& f;
    const Value& a;
  };
  using Output = Value;
  using Kind = ValueNode::Kind;
  static constexpr std::size_t kind_count = static_cast<std::size_t>(ValueNode::Kind::array_op) + 1;
  static Kind kind(const Redex& r) { return r.f->kind; }
  using Extra = MachineStep<Machine, Redex>;
};

// Running a computation comp(ρ, c) on the DeltaState (Fig. 10's m s, L494-537): the machine's
// run loop with its stack of pending >>= continuations.
struct MonadRun;
// What a rule of the monad produces: the computation's result, or (>>=) the computation to run
// next, its continuation pushed.
struct RunNext {
  Value result;
  Value then = nullptr;
};
struct Monad {
  using Context = MonadRun;
  struct Redex {
    const Value& computation;
    const Value* delta = nullptr; // deltaLet: its argument's value; sequence: the vector's
  };
  using Output = RunNext;
  using Kind = adsem::delta_reverse::Kind;
  static constexpr std::size_t kind_count = form_count;
  static Kind kind(const Redex& r) { return r.computation->body->kind; }
  static const Node& node(const Redex& r) { return *r.computation->body; }
  using Extra = MachineStep<MonadRun, Redex>;
};

// eval x u m (Fig. 10, L501-522) on a finite map; the context holds m and re-enters the strategy.
struct DeltaEval : DeltaRelation {
  using Context = MapEval;
  struct Redex {
    double x;
    const Delta& u;
  };
  using Output = void;
  static Kind kind(const Redex& r) { return r.u->kind; }
};

// §7.3's array version on one rhs tree (L585-597): grad[id] indexed by id, an explicit stack.
struct Sweep : DeltaRelation {
  using Context = ArraySweep;
  struct Redex {
    double x;
    const DeltaNode* u;
  };
  using Output = void;
  static Kind kind(const Redex& r) { return r.u->kind; }
};

// eval's lookup id m2 for one Let of the spine (Fig. 10, L501-522): Nothing or Just x'.
struct LetLookup {
  using Context = MapEval;
  enum class Kind { nothing, just };
  static constexpr std::size_t kind_count = 2;
  struct Redex {
    const DeltaNode& let;
    DeltaMap::iterator at; // m2's entry for the Let's id, or m2's end
    bool bound = false;
  };
  using Output = void;
  using Extra = std::optional<Step>;
  static Kind kind(const Redex& r) { return r.bound ? Kind::just : Kind::nothing; }
};

// eval_2 x u v (Fig. 8, L392-401) on an unshared Delta2 tree, an explicit stack.
struct Delta2Walk;
struct DeltaEval2 : DeltaRelation {
  using Context = Delta2Walk;
  struct Redex {
    double x;
    const DeltaNode* u;
  };
  using Output = void;
  static Kind kind(const Redex& r) { return r.u->kind; }
};

// One binding of the array sweep's pass (§7.3): an untouched id is skipped, a touched one swept
// with its completed adjoint.
struct TapeBinding {
  using Context = ArraySweep;
  enum class Kind { skip, binding };
  static constexpr std::size_t kind_count = 2;
  struct Redex {
    const std::pair<std::int64_t, Delta>& binding;
    bool touched = false;
  };
  using Output = void;
  using Extra = std::optional<Step>;
  static Kind kind(const Redex& r) { return r.touched ? Kind::binding : Kind::skip; }
};

// §7.3's pass over the bindings, each rhs swept with its completed adjoint; counts its own steps.
struct SweepTape : WholeRelation {
  using Context = ArraySweep;
  struct Redex {
    const Binds& binds;
  };
  using Output = void;
};

// runDelta's fold (Fig. 10, L540-571): the tape and the result's Delta become one Let nest.
struct RunDelta : WholeRelation {
  using Context = DeltaFold;
  struct Redex {
    const Binds& binds;
    const Delta& result;
  };
  using Output = Delta;
};

// runDelta's wrap (Fig. 10, L540-571): one binding around the Delta built so far.
struct Wrap : WholeRelation {
  using Context = DeltaFold;
  struct Redex {
    const std::pair<std::int64_t, Delta>& binding;
    const Delta& body;
  };
  using Output = Delta;
  using Extra = std::optional<Step>;
};

// R{e}'s run (Fig. 11 L554, Fig. 15 L913): runDelta (dv + 1) (do { g <- Drev{e}; g s0 }), on the
// machine's DeltaState; the output is the Drev{T} value g s0 returned.
struct RunProgram : WholeRelation {
  using Context = Machine;
  struct Redex {
    const Term& drev_e;
    const Value& argument;
    std::int64_t first_id;
  };
  using Output = Value;
};

// lookup_S (finalMap, s0) (§11, L925, L941): the gradient read back in the shape of s, one entry
// per type former of a first-order S.
struct Lookup {
  struct Context {
    std::function<double(std::int64_t)> adjoint;               // lookupOrZero finalMap
    std::function<Value(const Value& s0, const Type& s)> read; // the strategy, for the parts
  };
  struct Redex {
    const Value& s0;
    const Type& s;
  };
  using Output = Value;
  using Kind = TypeNode::Kind;
  static constexpr std::size_t kind_count = static_cast<std::size_t>(TypeNode::Kind::vector) + 1;
  static Kind kind(const Redex& r) { return r.s->kind; }
};

using Rules = RuleBook<Dfwd, Drev1, Drev2, Drev, RunProgram, RunDelta, DeltaEval, Sweep, SweepTape,
                       Lookup, SourceEval, SourceRewrite, DenseOp, Apply, Monad, Wrap, LetLookup,
                       DeltaEval2, TapeBinding>;
using RulesPtr = std::shared_ptr<const Rules>;

// The context of runDelta's fold and its wraps.
struct DeltaFold {
  const Rules& rules;
  Ledger& ledger;
};
using RulesPatch = Rules::Patch;

} // namespace adsem::delta_reverse
