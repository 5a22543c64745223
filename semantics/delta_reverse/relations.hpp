#pragma once
// The relations of seed 001 whose rules are entries of delta-reverse's rule book
// (semantics/core/rule_table.hpp), and the book's type. Each relation says what its rules receive
// (the redex with what the strategy already knows) and produce; the strategies are translate.cpp
// (the walk of Dfwd, Drev1, Drev2, Drev), delta_eval.cpp (runDelta, eval, the array sweep) and
// wrappers.cpp (R{e} and lookup_S).
//
// Naming: a translation clause is "T[c]", T the translation as the paper prints it and c the
// construct of Fig. 1 it translates: x, k (a leaf literal), λ, app, let, pair, fst, snd, inl, inr,
// case, r (a real literal), op (a primitive). The interpretation of Deltas keeps the names its
// steps are counted and traced under (ledger.hpp): `eval-Var`, `sweep-Add`, ...
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "semantics/core/rule_table.hpp"
#include "semantics/delta_reverse/ledger.hpp"
#include "semantics/delta_reverse/values.hpp"
#include "syntax/delta_reverse/ast.hpp"

namespace adsem::delta_reverse {

class Machine;
class Translator;
struct MapEval;
struct ArraySweep;

using Binds = std::vector<std::pair<std::int64_t, Delta>>; // allocation order
using DeltaMap = std::map<std::int64_t, double>;

// The dispatch index of the translations is keyed by Form; the last form is s_otimes.
inline constexpr std::size_t form_count = static_cast<std::size_t>(Form::s_otimes) + 1;

// One clause of a translation {e} (Figs. 3, 5, 7, 9): the redex is the source term, the output
// its translation; the context is the walk, which translates subterms by the same relation.
struct TranslationClause {
  using Context = Translator;
  struct Redex {
    const Term& term;
  };
  using Output = Term;
  using Kind = Form;
  static constexpr std::size_t kind_count = form_count;
  static Kind kind(const Redex& r) { return r.term->form; }
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
  using Context = Ledger;
  struct Redex {
    const Binds& binds;
    const Delta& result;
  };
  using Output = Delta;
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
  static constexpr std::size_t kind_count = static_cast<std::size_t>(TypeNode::Kind::dense) + 1;
  static Kind kind(const Redex& r) { return r.s->kind; }
};

using Rules =
    RuleBook<Dfwd, Drev1, Drev2, Drev, RunProgram, RunDelta, DeltaEval, Sweep, SweepTape, Lookup>;
using RulesPtr = std::shared_ptr<const Rules>;
using RulesPatch = Rules::Patch;

} // namespace adsem::delta_reverse
