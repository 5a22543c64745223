#pragma once
// The rewriting rules of Table 2 (seed 002 L328-367, spec §4.2-4.4) as named, enumerable rules,
// and the strategies of spec §4.7 (S_bp, S_lo, S_rand) with fuel and a rule trace. Terms must be
// elaborated (typecheck.hpp fills the ES binder annotations the type-sensitive rules read).
//
// Rule names (paper numbers): beta-7, pair-8, subst-9, gc-10, lin-subst-11, sum-12,
// sum-pair-13, mul-14, prim-23 (β), factor-17 (ℓ), and the η-rules eta-15, eta-pair-16, of which
// only eta-pair-16 takes part in S_bp (spec §4.7 class 3; P12: η is never part of normalise).
//
// [EXT, spec §9 P3] Sums are matched up to associativity and commutativity: (12), (13) and (17)
// fire on any two summands of a maximal sum (the AC normalisation belongs to ≡, a free step).
// [spec §4.4 caveat] (12), (13) and (17) fire only when the moved stacks hold no linear ES.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "semantics/core/work_budget.hpp"
#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/typecheck.hpp"

namespace adsem::linear_negation {

namespace rule {
inline constexpr const char* beta = "beta-7";
inline constexpr const char* pair = "pair-8";
inline constexpr const char* subst = "subst-9";
inline constexpr const char* gc = "gc-10";
inline constexpr const char* lin_subst = "lin-subst-11";
inline constexpr const char* sum = "sum-12";
inline constexpr const char* sum_pair = "sum-pair-13";
inline constexpr const char* mul = "mul-14";
inline constexpr const char* eta = "eta-15";
inline constexpr const char* eta_pair = "eta-pair-16";
inline constexpr const char* factor = "factor-17";
inline constexpr const char* prim = "prim-23";
} // namespace rule
// Every rule the reducer can fire (eta-15 is exposed through eta_expand only).
const std::vector<std::string>& rule_names();

enum class Strategy {
  bp,     // S_bp: backprop-aware priority classes (spec §4.7.4)
  lo,     // S_lo: leftmost-outermost βℓ
  random, // S_rand(seed): uniform over all redex instances
};

// Which rules are in force (mutants replace entries, spec "Mutants").
struct RuleSet {
  bool factoring = true;             // (17); off: mutant linear-factoring-disabled
  bool duplicate_pair_stack = false; // mutant equivalence-duplicates-substitution (rule (8))
  bool eta_pair = true;              // (16) in S_bp
  bool numeric_only = false;         // Lemma 7: only (9)ⁿ, (10), (12), (13), (14), (23)
};

struct RunOptions {
  long fuel = 1'000'000;
  bool trace = false;
  Strategy strategy = Strategy::bp;
  RuleSet rules;
  std::uint64_t seed = 0;         // S_rand
  Context free_types;             // types of the free variables (e.g. xj' : R -o R in Cor. 16)
  RuleCounter* counter = nullptr; // rule coverage: each step is added here too (campaigns)
  // (9) counts one step however large the value it copies (spec §7 P10): the nodes copied are
  // spent against fuel * copy_per_step, so fuel bounds the work and the memory too.
  long copy_per_step = 64;
};

struct Run {
  Term result;
  long steps = 0;
  std::map<std::string, long> rule_counts;
  std::vector<std::string> trace; // "rule: term after the step" (when asked)
  long copy_volume = 0;           // Σ|v| over (9) steps (spec §6 P20.4)
};

// One step of the strategy, or nullopt at a normal form.
struct Step {
  std::string rule;
  Term result;
};

class Reducer {
public:
  Reducer(const Term& t, RunOptions options);
  std::optional<Step> step(); // advances the current term
  // The same step chosen from the full enumeration of the redex instances (all_steps' way): the
  // reference the cached choices of step() are tested against.
  std::optional<Step> step_by_enumeration();
  std::vector<Step> all_steps(); // every redex instance of the current term, contracted
  const Term& current() const { return current_; }
  const RunOptions& options() const { return options_; }

private:
  struct Candidate;
  struct Sink;
  // A redex instance at a node, without its path (match_node's output).
  struct Offer {
    const char* rule = nullptr;
    int cls = 0;
    std::size_t i = 0, j = 0;
  };
  // S_bp, S_lo and S_rand read their choice from a summary per node (RedexMemo in the AST), built
  // bottom-up and reused for the subtrees a step leaves unchanged
  // (docs/calculi/linear-negation.md).
  const RedexMemo::Summary& summary(const Term& t, bool in_sum);
  void enumerate(const Term& t, std::vector<int>& path, bool in_sum, Sink& out);
  void match_node(const Term& t, bool in_sum, std::vector<Offer>& out);
  std::optional<Candidate> cached_choice(bool best);
  std::optional<Candidate> sampled_choice();
  Term contract(const Term& t, const Candidate& c);
  Term apply_at(const Term& t, const Candidate& c, std::size_t depth);
  bool is_neg_variable(const std::string& x);
  void learn_types(const Term& t);

  Term current_;
  RunOptions options_;
  Names names_;
  std::map<std::string, Type> types_;
  std::uint64_t rng_state_;
  long copy_volume_ = 0;
  WorkBudget copy_budget_;
  std::vector<Offer> offers_; // match_node's scratch buffer for summary()
  std::uint64_t id_;          // owner of the summaries this reducer writes into the nodes' memos
  friend Run normalise(const Term& t, const RunOptions& options);
};

// Runs the strategy to a βℓ-normal form; AdsemError(fuel) when the budget runs out.
Run normalise(const Term& t, const RunOptions& options);

// ---- pieces the rules are made of (spec §2.8) ----
struct Peeled {
  Term core;
  std::vector<Term> frames; // the ES nodes of α, innermost first
};
Peeled peel(const Term& t);
Term wrap(Term core, const std::vector<Term>& frames);
bool exponential_stack(const std::vector<Term>& frames);

// (15) t → λy.(t y) at arrow or R^⊥d type (spec §4.3); used by properties only.
Term eta_expand(const Term& t, const Type& type, Names& names);

} // namespace adsem::linear_negation
