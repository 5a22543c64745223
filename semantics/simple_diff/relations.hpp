#pragma once
// The relations of seed 003 Section 3 whose rules are entries of simple-diff's rule book
// (semantics/core/rule_table.hpp), and the book's type. Each relation says what its rules
// receive (the redex with its premises already derived by the strategy) and produce; the
// strategies are eval.cpp (⇒), symbolic_eval.cpp (⇝) and symbolic_diff.cpp (R).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <typeinfo>
#include <vector>

#include "semantics/core/rule_table.hpp"
#include "semantics/simple_diff/judgements.hpp"

namespace adsem::simple_diff {

class Machine;

// The dispatch index is keyed by Kind; the last kind is `pred`.
inline constexpr std::size_t node_kind_count = 16;
static_assert(static_cast<std::size_t>(Kind::pred) + 1 == node_kind_count);

// Relations whose redex is a term (`term`), and relations whose redex is a node seen in place
// (`node`).
struct TermRelation {
  using Context = Machine;
  using Kind = adsem::simple_diff::Kind;
  static constexpr std::size_t kind_count = node_kind_count;
  template <class Redex> static Kind kind(const Redex& r) { return r.term->kind; }
  template <class Redex> static const Node& node(const Redex& r) { return *r.term; }
};
struct NodeRelation {
  using Context = Machine;
  using Kind = adsem::simple_diff::Kind;
  static constexpr std::size_t kind_count = node_kind_count;
  template <class Redex> static Kind kind(const Redex& r) { return r.node.kind; }
  template <class Redex> static const Node& node(const Redex& r) { return r.node; }
};

// φ | ρ ⊢ M ⇒ V (Figs. 2-3 and 8's L-letrec, L-call), in the compositional reading of spec
// §4.6: the evaluator derives the premises (the values of the evaluation-position subterms, the
// guard, the callee φ(f)) and the redex rule produces the value.
struct Ordinary : TermRelation {
  struct Redex {
    const FunEnv& phi;
    const Term& term;
    std::span<const Value> args = {}; // add: r, s; op, fst, snd, let, call: V; rd: point, cotangent
    bool guard = false;               // if: the guard's value
    ClosurePtr callee = nullptr;      // call: φ(f), null when f is unbound
  };
  using Output = Value;
};

// φ | ρ ⊢ B ⇒ b (Fig. 2's O-pred, and the boolean values).
struct Boolean : NodeRelation {
  struct Redex {
    const Node& node;
    const Value* arg = nullptr; // pred: the argument's value
  };
  using Output = bool;
};

// φ | ρ ⊢ M ⇝ C for M in tail position (Fig. 4 and Fig. 8's L-sletrec, L-scall): the
// evaluation-position subterms are already open values (`atoms`).
struct Symbolic : TermRelation {
  struct Redex {
    const FunEnv& phi;
    const Term& term;                 // for S-val, the value with its redexes bound (S-ctx)
    std::span<const Term> atoms = {}; // in evaluation order (rd: point, cotangent)
    bool want_value = false;          // S-ctx needs the trace's value
    bool guard = false;               // if: the guard's value
    ClosurePtr callee = nullptr;      // call: φ(f)
  };
  using Output = SymResult;
};

// Fig. 5's S-ctx: a redex in a non-tail evaluation position is traced and its trace bound to a
// fresh z; the result is the atom z.
struct SymbolicContext : TermRelation {
  struct Redex {
    const FunEnv& phi;
    const Term& term;
    TraceBindings& bindings;
  };
  using Output = Term;
};

// Fig. 5's S-ctxb: a predicate redex in the guard of `if` is decided, its argument an atom.
struct SymbolicGuard : NodeRelation {
  struct Redex {
    const Node& node; // the guard
    const Term& arg;
  };
  using Output = bool;
};

// W.R_V(x:T. C), one clause of Fig. 6 per trace-term former of C.
struct Derivative : TermRelation {
  struct Redex {
    const DiffGoal& goal;
    const Term& term; // C, renamed apart
  };
  using Output = Term;
  // A child of C that a clause differentiates in turn.
  enum class Premise : std::uint8_t { a, b };
  // The derivatives a clause takes of C's children, in the order it takes them (R-let: E, E, D),
  // so that the steps of Fig. 6 applied literally can be counted before its exponential output is
  // built (symbolic_diff.cpp). The list describes one result: an entry whose result a patch
  // replaced (a user's clause, a test's rule) has none unless the patch writes one.
  struct Extra {
    std::vector<Premise> premises;
    const std::type_info* result_type = nullptr; // the result's callable type the list is for
    Term (*result_function)(Machine&, const Redex&, const RuleInfo&) = nullptr; // and function
  };
};

// W.R_V(x:T. C) for a whole trace C at once (R-fast, spec §9 P-1(b)); the rule counts its own
// steps. When none fires, the Fig. 6 clauses are applied.
// It reads C as traced, not a renamed copy: the binder x of C is `traced_x`, renamed apart to
// goal.x, and every let of C is bound afresh by A-normal form (symbolic_diff_linear.cpp). The
// strategy hands over its last reference to C (`term` is not const): a rule may release the
// trace once it has read it, so that C and its derivative are not alive together.
struct TraceDerivative : TermRelation {
  struct Redex {
    const DiffGoal& goal;
    Term& term;                  // C, binders as traced
    const std::string& traced_x; // the binder's name in C (goal.x is its fresh name)
  };
  using Output = Term;
  static constexpr bool counts_own_steps = true;
};

// The rules of a user's rule file (`--rules`, docs/rules/simple-diff.md): an added rule
// `LHS --> RHS` is the evaluation rule "LHS ⇒ V if RHS ⇒ V" (and "LHS ⇝ C if RHS ⇝ C"), tried on
// entry to ⇒ and ⇝ at every term they visit, before the premises of the paper's rule for the
// construct. The redex is the unevaluated term; the rule produces the term evaluation continues
// on (its right-hand side instantiated). The paper's book has no entry here, so without user rules
// the lookup finds an empty list.
struct Rewrite : TermRelation {
  struct Redex {
    const FunEnv& phi;
    const Term& term;
    bool symbolic = false; // entered from ⇝ (true) or ⇒ (false)
  };
  using Output = Term;
};

using Rules = RuleBook<Ordinary, Boolean, Symbolic, SymbolicContext, SymbolicGuard, Derivative,
                       TraceDerivative, Rewrite>;
using RulesPtr = std::shared_ptr<const Rules>;
using RulesPatch = Rules::Patch;

} // namespace adsem::simple_diff
