#pragma once
// The relations of seed 002 whose rules are entries of linear-negation's rule book
// (semantics/core/rule_table.hpp), and the book's type: the rewriting rules (7)-(23) of Table 2
// (the strategies S_bp, S_lo, S_rand of reduction.cpp decide where they are tried), the rules
// (18)-(22) of its structural equivalence (equivalence.cpp walks them), the
// clauses of Table 3b's transformation D (transform.cpp walks the term), the clauses of Def. 10's
// symbolic backpropagation bp and of Sect. 2.3's forward mode D→ (transform.cpp walks the graph),
// and the read-back of Cor. 16 and
// the seeding of Prop. 1 (transform.cpp reads a gradient with them).
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "semantics/core/rule_table.hpp"
#include "syntax/linear_negation/ast.hpp"

namespace adsem::linear_negation {

class Reducer;
class Differentiator;
class Backpropagator;
class ForwardDifferentiator;
class EquivalenceSteps;

// A term seen through its explicit substitutions: t = core α (spec §2.8).
struct Peeled {
  Term core;
  std::vector<Term> frames; // the ES nodes of α, innermost first
};

// A summand of a maximal sum, held by neither the redex nor the search's buffer (the side
// conditions of (12), (13) and (17) read every summand of every sum the search visits, and a node
// so held would read as shared to the in-place steps after): the summand, in its sum's node, and
// its core under its ES stack (peel's frames are the ES nodes from the one down to the other).
struct Summand {
  const Term* term = nullptr;
  const Node* core = nullptr;
  // Null, or the summand is read in an unforced shared copy's original, not built (the search's
  // listing, whose side conditions read shapes and the names free in the sum): the renaming the
  // copy applies to those names.
  const Renaming* names = nullptr;
};

// A listing's scratch (list_summands): the renamings its summands read in unforced copies'
// originals are named through (each kept from listing to listing), each with the number of those
// copies nested above them, and the right operands still to list.
struct SummandViews {
  struct Viewed {
    Renaming names;
    int depth = 0;
  };
  std::vector<std::unique_ptr<Viewed>> names;
  std::size_t used = 0;
  std::vector<std::pair<const Term*, const Viewed*>> todo;
};

// The most unforced copies nested in one another a listing reads in their originals: each keeps
// its original alive, and each original its free-variable lists (O(n) names on the wide family's
// levels: n² memory in all). A sum that nests more is listed forced, as without the view: forcing
// its top copy down its spine lets go of the originals below, and the next levels are read on top
// of the spine so built (one forced listing in this many levels).
inline constexpr int max_viewed_copies = 16;

// list_summands's listing: false, having listed t in part, where with view a copy nests in
// more than max_viewed_copies others read in their originals.
bool listed_within_view(const Term& t, std::vector<Summand>& out, SummandViews& scratch, bool view);

// The summands of t left to right (t itself when it is not a sum), each with its core: the sums
// and the ES nodes above the cores are made (force) as peel makes them. A summand is read through
// its address in its sum's node: the buffer holds no node (a node it held would read as shared,
// use_count, to the in-place steps after and to (9)'s guided descent along the focus's path).
// With view, an unforced shared copy of a sum below t is not forced down its spine but read in
// its original, its summands named through the copy's renaming (Summand::names): the paper's side
// conditions read the summands' shapes, which are their originals', and the names free in the
// sum (forcing built each summand of the wide family's sums at each listing: 30% of the run).
// Where more copies nest than max_viewed_copies, t is listed anew as without view, whose forcing
// lets go of the originals below. out is empty. (Inline: most sums the search lists are small.)
inline void list_summands(const Term& t, std::vector<Summand>& out, SummandViews& scratch,
                          bool view) {
  if (listed_within_view(t, out, scratch, view)) return;
  out.clear();
  listed_within_view(t, out, scratch, false);
}

// x, a name free in the summand, as its sum names it.
inline const std::string& name_in_sum(const Summand& s, const std::string& x) {
  const std::string* to = s.names != nullptr ? renamed_in(*s.names, x) : nullptr;
  return to != nullptr ? *to : x;
}

// The dispatch index is keyed by the node tag; the last tag is `prim`.
inline constexpr std::size_t tag_count = 9;
static_assert(static_cast<std::size_t>(Kind::prim) + 1 == tag_count);

// Relations whose redex is a node (`term`), keyed by its tag.
struct TagRelation {
  using Kind = adsem::linear_negation::Kind;
  static constexpr std::size_t kind_count = tag_count;
  template <class Redex> static Kind kind(const Redex& r) { return r.term->kind; }
  template <class Redex> static const Node& node(const Redex& r) { return *r.term; }
};

// S_bp's priority classes (spec §4.7.4): 1 is tried first. A rule without a declared class (a
// user's rule) is tried last.
inline constexpr int last_priority_class = 8;

// t → t' by one rule of Table 2 (seed 002 L328-367, spec §4.2-4.4) at a node the strategy
// visits. A node can hold several redex instances of one rule (rule (17) once per R^⊥ head of a
// sum): `nth` asks for the nth of them. An entry has one instance per node unless its Extra says
// otherwise, and its side condition is then asked at nth = 0 only.
struct Reduction : TagRelation {
  struct Redex {
    const Term& term;
    bool in_sum = false; // term is a summand of a larger sum (only that sum's rules fire, AC)
    // For a maximal sum: its summands left to right.
    std::span<const Summand> summands = {};
    std::size_t nth = 0;
    // An explicit substitution's bound term's core (rules.cpp, bound_core), found once for the
    // side conditions of all the node's entries; null until asked.
    mutable const Term* bound_core = nullptr;
    // Whether that core is a value (rules.cpp, bound_is_value): 1 or 0, -1 until asked.
    mutable signed char bound_value = -1;
  };
  using Context = Reducer;
  using Output = Term;
  // What the strategies read off an entry besides its side condition: data, so that the search
  // calls no function for it (spec §4.7.4).
  struct Extra {
    // The S_bp priority class of every instance; empty: last_priority_class (a user's rule
    // without one).
    std::optional<int> priority_class = {};
    // When set, the class read off the instance instead (rule (9): by the value it copies).
    std::function<int(const Reducer&, const Redex&)> class_of = {};
    // The side condition is asked for nth = 0, 1, … until it fails (rule (17): one instance per
    // pair of summands); otherwise at nth = 0 only.
    bool several_instances = false;

    bool has_class() const { return priority_class || class_of; }
    int class_at(const Reducer& m, const Redex& r) const {
      return class_of ? class_of(m, r) : priority_class.value_or(last_priority_class);
    }
  };
};

// t ≡ t' by one rule of Table 2d (seed 002 L369-383, spec §4.5) at the node `term`, in either
// direction: every instance there (a rule may apply on both sides of a binary former). The
// strategies never use ≡ (Prop. 4); the properties walk it (equivalence.cpp).
struct Equivalence : TagRelation {
  struct Redex {
    const Term& term;
  };
  using Context = EquivalenceSteps;
  using Output = std::vector<Term>;
};

// D(t), one clause of Table 3b (seed 002 L453-468, spec §4.8) per term former; the clause builds
// D of the node from D of its subterms (Differentiator::go).
struct Transform : TagRelation {
  struct Redex {
    const Term& term;
  };
  using Context = Differentiator;
  using Output = Term;
};

// bp_{x,a}(G) of Def. 10 (seed 002 L479-517, spec §4.10a), one clause per former of the
// computational graphs (25), L473-477; the clause builds bp of the node from bp of its subgraphs
// (Backpropagator::go). Its parts: bp(G) = ⟨G0, ⟨G1..Gn⟩α⟩β.
struct BpParts {
  Term g0;
  std::vector<Term> gi;          // G1..Gn, one per input
  std::vector<Term> alpha, beta; // the ES stacks α and β, innermost first
};
struct SymbolicBackprop : TagRelation {
  struct Redex {
    const Term& term;                       // G
    const std::vector<std::string>& inputs; // x = x1..xn
    const std::string& a;                   // the exponential variable a
  };
  using Context = Backpropagator;
  using Output = BpParts;
};

// D→(G) of Sect. 2.3 (seed 002 L127-140, spec §4.10b), forward mode on computational graphs: one
// clause per former of (25); the clause builds D→ of the node from D→ of its subgraphs
// (ForwardDifferentiator::go), over inputs of type R × R.
struct ForwardMode : TagRelation {
  struct Redex {
    const Term& term;
  };
  using Context = ForwardDifferentiator;
  using Output = Term;
};

// The two definitions a gradient is read with, beside the rules: not rewriting steps, but one
// entry each so that a patch can change them. They fire in no machine (`Definitions` is empty):
// each is a function of its redex.
struct Definitions {};
enum class DefinitionKind { read_back, seed };

// Read-back A (Cor. 16, seed 002 L562-566; spec §4.9): the normal form Σ_j xj' gj of the gradient
// wrapper, over its backpropagator variables x1'..xn', gives the gradient (g1..gn); nullopt when
// the normal form has another shape.
struct ReadBack {
  using Context = Definitions;
  using Kind = DefinitionKind;
  static constexpr std::size_t kind_count = 2;
  struct Redex {
    const Term& normal_form;
    const std::vector<std::string>& backprop;
  };
  using Output = std::optional<std::vector<double>>;
  static Kind kind(const Redex&) { return DefinitionKind::read_back; }
};

// Forward mode's seeding (Prop. 1, seed 002 L140-142; spec §4.10b): for ∂_j, input i of D→(G) is
// bound to ⟨r_i, 1⟩ when i = j and ⟨r_i, 0⟩ otherwise.
struct Seed {
  using Context = Definitions;
  using Kind = DefinitionKind;
  static constexpr std::size_t kind_count = 2;
  struct Redex {
    double r;              // r_i, the input's value
    std::size_t input;     // i
    std::size_t direction; // j
  };
  using Output = Term;
  static Kind kind(const Redex&) { return DefinitionKind::seed; }
};

using Rules =
    RuleBook<Reduction, Equivalence, Transform, SymbolicBackprop, ForwardMode, ReadBack, Seed>;
using RulesPtr = std::shared_ptr<const Rules>;
using RulesPatch = Rules::Patch;

// What the rules that move a stack α out may move: (8) the stack of its pair, (9) and (10) the
// stack of an ES's bound value, (12), (13) and (17), on two summands of a maximal sum, the
// summands' stacks across the other summand, (14) and (23) their arguments' stacks. The book's
// move exponential ES only [spec §4.4 caveat: a linear ES moved there leaves its variable outside
// its linear judgment, an ill-typed term; the rule then waits for (11) to dissolve it]; `any` is
// Table 2 as printed, which the paper's proof of Lemma 14 uses for (17) (L552, L938-944).
enum class MovedStacks { exponential, any };
// The book's rule of that name, (8), (9), (10), (12), (13), (14), (17) or (23), with that reading
// (the book's entry is the one with MovedStacks::exponential). AdsemError(usage) for another name.
Rule<Reduction> moving_rule(const std::string& name, MovedStacks moved);

// The paper's rules, built once (rules.cpp).
const RulesPtr& paper_rules();
// A new book: the paper's with the patch applied.
RulesPtr patch_paper_rules(const RulesPatch& patch);

} // namespace adsem::linear_negation
