#pragma once
// The rewriting rules of Table 2 (seed 002 L328-367, spec §4.2-4.4) as named, enumerable rules,
// and the strategies of spec §4.7 (S_bp, S_lo, S_rand) with fuel and a rule trace. Terms must be
// elaborated (typecheck.hpp fills the ES binder annotations the type-sensitive rules read).
//
// The rules are the entries of the rule book (relations.hpp, rules.cpp), listed under the names
// the traces print: beta-7, pair-8, subst-9, gc-10, lin-subst-11, sum-12, sum-pair-13, mul-14,
// eta-pair-16, factor-17 and prim-23; η (15) is eta_expand, used by properties only (spec §4.7
// class 3; P12: η is never part of normalise).
//
// [EXT, spec §9 P3] Sums are matched up to associativity and commutativity: (12), (13) and (17)
// fire on any two summands of a maximal sum (the AC normalisation belongs to ≡, a free step).
// [spec §4.4 caveat] (12), (13) and (17) fire only when the moved stacks hold no linear ES.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "semantics/core/work_budget.hpp"
#include "semantics/linear_negation/free_table.hpp"
#include "semantics/linear_negation/occurrence.hpp"
#include "semantics/linear_negation/relations.hpp"
#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/name_table.hpp"
#include "syntax/linear_negation/typecheck.hpp"

namespace adsem::linear_negation {

enum class Strategy {
  bp,     // S_bp: backprop-aware priority classes (spec §4.7.4)
  lo,     // S_lo: leftmost-outermost βℓ
  random, // S_rand(seed): uniform over all redex instances
};

// Readings of Table 2 that the rules' side conditions consult (a mutant is a patch of the book
// instead, properties/linear_negation/mutants.cpp).
struct RuleSet {
  bool factoring = true;     // (17) linear factoring (off: the control of the complexity families)
  bool eta_pair = true;      // (16) in S_bp
  bool numeric_only = false; // Lemma 7: only (9)ⁿ, (10), (12), (13), (14), (23)
  bool operator==(const RuleSet&) const = default;
};

struct RunOptions {
  long fuel = 1'000'000;
  bool trace = false;
  Strategy strategy = Strategy::bp;
  RuleSet rules;
  RulesPtr book = paper_rules();  // the rules that fire (a mutant's patched book)
  std::uint64_t seed = 0;         // S_rand
  Context free_types;             // types of the free variables (e.g. xj' : R -o R in Cor. 16)
  RuleCounter* counter = nullptr; // rule coverage: each step is added here too (campaigns)
  // (9) counts one step however large the value it copies (spec §7 P10): the nodes copied are
  // spent against fuel * copy_per_step, so fuel bounds the work and the memory too.
  long copy_per_step = 64;
  // Finding a redex is not one step's work either: the summaries of the path above the last
  // redex are computed again, and a maximal sum's summands are gathered and matched (AC, spec §9
  // P3), so on a large term a step can cost thousands of node visits. Those visits are spent
  // against max(fuel, search_floor) * search_per_step, so fuel bounds the search as well (a
  // size-60 term of unique-normal-forms took over 10 s of CPU within its 200,000 steps). The floor
  // (a campaign's default fuel): a small fuel bounds steps, as a cost bound's does, and a run that
  // grows its term within those steps (BMP without rule (17)) must end on the steps, not on the
  // search for them.
  long search_per_step = 64;
  static constexpr long search_floor = 200'000;
  // normalise shares (9)'s copies and builds what the reduction reads of them (ast.hpp,
  // Suspension); off, it builds every copy whole, as the step-by-step Reducer does (the terms
  // and traces are the same: tests/linear_negation/shared_copy_test.cpp).
  bool share_copies = true;
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

// The binders' types by name, all that Reducer::is_neg_variable and variable_type read, over a copy
// of the free table's set of names where the run has one, each name's type by its id: a node-based
// map built a key string and a node per binder and hashed each by a library call, again for every
// run (about 0.8% of a throughput run of small terms).
class BinderTypes {
public:
  BinderTypes() = default;
  explicit BinderTypes(const NameTable& names)
      : names_(names), types_(names.size()), set_(names.size(), 0) {}
  void set(std::string_view name, const Type& type);
  // The same for the name of this id in the table it was made from.
  void set(int id, const Type& type) {
    const auto at = static_cast<std::size_t>(id);
    // a name bound twice at different types (a term whose binders are not unique) is ambiguous
    if (set_[at] != 0 && !same_type(types_[at], type))
      set_[at] = 2;
    else if (set_[at] == 0)
      set_[at] = 1;
    types_[at] = type;
  }
  // The type set last for the name (possibly null), or nothing when none was.
  const Type* find(std::string_view name) const;
  // The same, or nothing when the name was bound at two different types.
  const Type* find_unique(std::string_view name) const;

private:
  NameTable names_;
  std::vector<Type> types_; // by id
  std::vector<char> set_;   // by id: 0 no type set, 1 one type, 2 two different types
};

// What the runs of one term share, made once where several strategies normalise it (the
// unique-normal-forms property runs S_bp, S_lo and S_rand on each term; each run made these again,
// about 5% of its instructions): the names the term takes, its binders' types (both with the
// free variables'), and its free table (count mode, free_table.hpp). A run copies the names and
// types, which it extends. The first search of a run summarises every node of the term (its
// redex instances, reduction.cpp); a run with the book and rule set of the run before takes those
// summaries over and is charged what their making spent, so its budget runs as if it had made
// them (the summaries are the term's: they read its nodes, the book, the rule set and the
// binders' types and counts, which the runs share).
class RunSetUp {
public:
  RunSetUp(const Term& t, Context free_types);
  const Term& term() const { return term_; }

private:
  friend class Reducer;
  Term term_;
  Context free_types_;
  std::optional<FreeTable> table_; // nothing when the binders are not unique
  Names names_;
  BinderTypes types_;
  // the run whose id owns the term's first summaries, with its book and rule set, and what
  // making them spent (0: none yet)
  std::uint64_t first_owner_ = 0;
  RulesPtr first_book_;
  RuleSet first_rules_;
  long first_spend_ = 0;
};

class Reducer {
public:
  Reducer(const Term& t, RunOptions options);
  // With t's free table (FreeTable::of(t)), made by the caller: the names and the binders' types
  // are read off it instead of walking t again.
  Reducer(const Term& t, RunOptions options, const std::optional<FreeTable>& table);
  // The set-up's term; options.free_types must be the set-up's.
  Reducer(const RunSetUp& set_up, RunOptions options);
  ~Reducer();
  std::optional<Step> step(); // advances the current term
  // From here on, step() keeps a focus at the last redex (focus.cpp): the next redex is searched
  // from there and the nodes above it are brought up to date only as the focus leaves them, so
  // a step under a deep stack of explicit substitutions no longer walks from the root. Between
  // steps current() may only be printed (the sizes and free-variable counts of the nodes above
  // the focus are stale) until close_focus(). With the paper's book and S_bp or S_lo only (a
  // mutant's or user's book, and S_rand, keep the walk from the root).
  void keep_focus();
  void close_focus(); // brings every node above the focus up to date; step() walks from the root
  // The same step chosen from the full enumeration of the redex instances (all_steps' way): the
  // reference the cached choices of step() are tested against.
  std::optional<Step> step_by_enumeration();
  std::vector<Step> all_steps(); // every redex instance of the current term, contracted
  // Every redex instance of the current term, as all_steps lists them: the rule, and the path of
  // child indices from the root to the redex node (a maximal sum's for (12), (13) and (17)).
  struct Instance {
    std::string rule;
    std::vector<int> path;
  };
  std::vector<Instance> instances();
  const Term& current() const { return current_; }
  const RunOptions& options() const { return options_; }

  // ---- what the rules' side conditions and results use ----
  // x is bound (or free) at type R^⊥d.
  bool is_neg_variable(const std::string& x) const;
  // The type x is bound at in the term (an exponential binder's A of !A, a linear binder's R^d),
  // or null when the run does not know it for sure (never seen, seen at two types, or a binder of
  // a shared copy): what a user rule's metavariable is type-checked with (rule_match.hpp).
  const Type* variable_type(std::string_view x) const;
  // A copy of the value v with its bound variables renamed apart (rule (9)): its size is spent
  // against the copy budget before it is built and added to the copy volume (spec §7 P10).
  Term copy_value(const Term& v);
  // t with its bound variables renamed apart (types learnt).
  Term renamed_apart(const Term& t);
  // A fresh exponential binder named after `base`, of type a (may be null).
  Binder fresh_binder(const std::string& base, const Type& a);

  // ---- a step's change of the free counts (free_table.hpp), once note_counts() is called ----
  // The paper's rules note, per name of the term before the step, how many occurrences their
  // contractum has more (or fewer) than their redex, and (16) its fresh binders' occurrences; the
  // binders of (9)'s copy are not noted (their counts are the copied value's). When the book is
  // the paper's and the term's binders are unique (checked here, O(|t|)), a step's changed names
  // are then read off the notes. Count mode (keeps_counts, below) turns it on; alone, it is off
  // by default (the side conditions would make the lists the comparison no longer makes).
  void note_counts();
  bool notes_counts() const { return noting_; }
  void note_count(std::string_view name, int delta) { // the name copied once, into the note
    if (noting_ && delta != 0)
      noted_.emplace_back(std::piecewise_construct, std::forward_as_tuple(name),
                          std::forward_as_tuple(delta));
  }
  // What the last contracted step noted, one entry per note, in the order noted.
  const std::vector<std::pair<std::string, int>>& noted_counts() const { return noted_; }
  // The sum of what the step being contracted noted so far of the name.
  int noted_delta(std::string_view name) const;
  // Count mode: the term's binders are unique, and every binder node's bound_count (ast.hpp) is
  // kept up to date along the steps, from the rules' notes, instead of being read off the
  // free-variable lists (the side conditions of (9) and (10) ask only it). Turned on by
  // keep_counts (normalise's start, keep_focus) with the paper's book, after one walk that checks
  // the binders and counts them; without it, nothing changes.
  bool keeps_counts() const { return counts_kept_; }
  void keep_counts();
  // Where a rule's result notes the nodes below its redex it wrote in place (occurrence.hpp):
  // only when this reducer holds the redex alone (nothing else reaches the nodes below it), else
  // null and the result builds new nodes.
  InPlaceWrites* in_place_writes() { return redex_alone_ ? &writes_ : nullptr; }
  // The redex node t, for a rule's result to write in place instead of building a node and
  // freeing the redex's: only where this reducer holds the redex alone (S_rand's walk from the
  // root, apply_in_place, and a step at the focus), else null. The focus compares the redex with
  // its contractum (same_core), so a written redex whose body changed is noted in writes_.
  Node* redex_to_rewrite(const Term& t) {
    return rewrite_redex_ ? const_cast<Node*>(t.get()) : nullptr; // made non-const (ast.cpp)
  }

private:
  struct Candidate;
  struct Sink;
  // A redex instance at a node, without its path: the entry, its S_bp class, which instance.
  struct Offer {
    const Rule<Reduction>* rule = nullptr;
    int cls = 0;
    std::size_t nth = 0;
  };
  // S_bp, S_lo and S_rand read their choice from a summary per node (RedexMemo in the AST), built
  // bottom-up and reused for the subtrees a step leaves unchanged
  // (docs/calculi/linear-negation.md).
  // The kept summary is read here, inline: most calls find it (a step's search reads the
  // summaries of the unchanged subtrees beside its path); summary_made computes a missing one.
  const RedexMemo::Summary& summary(const Term& t, bool in_sum) {
    const bool own_context = in_sum && t->kind == Kind::add; // only a sum's redexes see in_sum
    const RedexMemo::Summary& slot = own_context ? t->memo.in_sum : t->memo.top;
    return slot.owner == id_ ? slot : summary_made(t, own_context);
  }
  const RedexMemo::Summary& summary_made(const Term& t, bool own_context);
  void enumerate(const Term& t, std::vector<int>& path, bool in_sum, Sink& out);
  // The redex instances at node t: the book's entries for t's tag, in book order. bound_core, when
  // the caller knows it, is the core of t's bound term under its explicit substitutions
  // (Reduction::Redex::bound_core).
  void offers_at(const Term& t, bool in_sum, std::vector<Offer>& out,
                 const Term* bound_core = nullptr);
  struct Reach;
  void add_children(const Node& n, RedexMemo::Summary& out);
  void summary_from_own(const Node& n, RedexMemo::Summary& kept);
  void refresh_summary(Node& n, std::size_t k, const Reach& below, bool in_sum, bool untouched);
  RedexMemo::Summary* standing_summary(Node& n, std::size_t k, const Reach& below, bool in_sum,
                                       bool untouched);
  void refresh_written();
  std::optional<Candidate> cached_choice(bool best);
  long sampled_index(std::uint32_t count);
  Candidate own_instance(const Term& t, const RedexMemo::Summary& s, bool in_sum, std::uint32_t k);
  std::optional<Candidate> sampled_choice();
  Term contract(const Term& t, const Candidate& c);
  Term apply_at(const Term& t, const Candidate& c, std::size_t depth);
  Term contract_noting(const Term& t, const Candidate& c);
  void touched_from_notes();
  void take_noted_counts(const Node& n, std::size_t k) const;
  void apply_noted_counts();
  Term rebuild_noting(const Term& t, const Candidate& c, std::size_t depth, Reach& reach);
  Reach apply_in_place(Term& slot, const Candidate& c, std::size_t depth, bool in_sum);
  bool rereads(const Node& n, std::size_t k, const Reach& below, bool in_sum) const;
  static bool reads_reach(const Node& n, std::size_t k, const Reach& below, bool in_sum);
  bool binds_touched(const Node& n) const;
  std::size_t touched_at(const std::string& x) const;
  bool take_touched_counts(const Node& n, std::size_t k) const;
  static Reach reach_above(const Node& n, std::size_t k, const Reach& below);
  void learn_types(const Term& t) const;
  Reducer(const Term& t, RunOptions options, const RunSetUp* set_up,
          const std::optional<FreeTable>* table);
  void keep_counts_from(const std::optional<FreeTable>& table);
  static Run normalise_from(const Term& t, const RunOptions& options, RunSetUp* set_up);
  void first_summaries(RunSetUp& set_up);
  static bool summarised_by(const Term& t, bool in_sum, std::uint64_t owner);
  void take_summaries(const Term& t, bool in_sum, std::uint64_t owner);
  // the focus (focus.cpp)
  struct Frame;
  struct Focus;
  void own_summary(const Term& t, bool own_context, RedexMemo::Summary& out,
                   const Term* bound_core = nullptr);
  std::optional<Candidate> focused_choice(bool best);
  const Rule<Reduction>* focused_step();
  // One step of the strategy: the entry that fired, or null at a normal form (step() without
  // the copy of its name and the hold on the result, for normalise's count of each rule).
  const Rule<Reduction>* advance();
  Term& focus_slot();
  bool focus_in_sum() const;
  void push_focus(std::size_t k);
  void pop_focus();
  void unwind_focus();
  void after_focused_step(Reach reach);
  std::optional<Candidate> frame_choice(std::uint8_t k, bool best);
  void step_at_frame(const Candidate& c);
  std::optional<Candidate> side_choice(std::uint8_t k, bool best);
  void step_beside(const Candidate& c);
  void drop_frame(std::size_t i, const Node& old);
  void split_frame(std::size_t i, const Node& old);
  void rename_above(std::size_t i);
  void bind_names(Frame& fr, const Node& n, std::size_t at);
  void unbind_names(const Frame& fr, const Node& n);
  void begin_rereads();
  void begin_rereads_above(std::size_t kept_from);
  std::size_t forget_from() const;
  void forgotten();
  void mark_rereads(std::size_t from, std::size_t to, Reach reach);
  const Term& core_after_run(std::size_t last);
  void finish_rereads();
  void refresh_side_heights(std::size_t from);
  void reread_frame(std::size_t i);
  void reread_after(std::size_t i);
  std::uint8_t key(const RedexMemo::Choice& best, const RedexMemo::Choice& first) const;

  Term current_;
  RunOptions options_;
  Names names_;
  mutable BinderTypes types_; // the binders' types, learnt from the terms seen
  // Whether each binder of (9)'s copies has type R^⊥d (all that is_neg_variable asks), indexed
  // by the number its fresh name ends in (Names::last_drawn): a sharing chain of n stages renames
  // Θ(n²) binders, which as entries of types_ took most of the run's memory.
  struct CopiedBinders;
  SharedNode<CopiedBinders> copied_;
  // (9) shares its copies (RunOptions::share_copies): only within normalise, with the paper's
  // book, so the terms every other caller sees are built.
  bool share_copies_ = false;
  RenameScratch rename_scratch_; // (9)'s renaming map, reused from copy to copy
  std::uint64_t rng_state_;
  long copy_volume_ = 0;
  WorkBudget copy_budget_;
  WorkBudget search_budget_;
  std::vector<Offer> offers_;            // offers_at's scratch buffer for summary()
  std::vector<Summand> summands_;        // a maximal sum's summands (offers_at)
  std::vector<Summand> chosen_summands_; // contract's own (a chosen sum's)
  SummandViews summand_views_;           // what summands_ read in copies' originals
  std::vector<int> path_buffer_;         // S_rand's path of the last step (sampled_choice)
  std::vector<Node*> held_path_;         // apply_in_place's path nodes held alone, its allocation
  std::uint64_t id_; // owner of the summaries this reducer writes into the nodes' memos
  // The tags some entry of the book fires on, one bit each: a node of another tag (a variable, a
  // numeral, λ and pairs in the paper's book) has no redex instance of its own, and its summary
  // is its children's (summary_made).
  std::uint32_t tags_with_entries_ = 0;
  // The book is the paper's, whose side conditions read only what Reach and touched_ describe:
  // a step then brings the summaries of its path up to date instead of recomputing them.
  bool known_reads_;
  std::vector<std::string> touched_; // the names free in a step's redex or its contractum
  // In count mode, what the step's notes sum to for each name of touched_ (read once: looking
  // each name up in the notes made a step that touches n names cost n × notes).
  std::vector<int> touched_delta_;
  bool noting_ = false;
  // The term's binders were unique when the focus was first kept (free_table.hpp), and the
  // paper's rules keep them so: a step's touched_ names are then read off the rules' notes
  // instead of comparing the free-variable lists of the redex and its contractum.
  bool touched_by_notes_ = false;
  std::vector<std::pair<std::string, int>> noted_;
  bool counts_kept_ = false;
  bool redex_alone_ = false;   // the step's redex is held by the current term only
  bool rewrite_redex_ = false; // and the step may write it (redex_to_rewrite)
  // touched_ and touched_delta_ are the sums of this step's noted_ by name (touched_from_notes):
  // apply_noted_counts reads them instead of summing the notes again.
  bool notes_summed_ = false;
  InPlaceWrites writes_;         // what the step's result wrote in place
  std::unique_ptr<Focus> focus_; // set by keep_focus()
  friend Run normalise(const Term& t, const RunOptions& options);
  friend Run normalise(RunSetUp& set_up, const RunOptions& options);
};

// Runs the strategy to a βℓ-normal form; AdsemError(fuel) when the budget runs out.
Run normalise(const Term& t, const RunOptions& options);
// The same on the set-up's term, from the set-up (options.free_types must be the set-up's),
// which keeps the term's first summaries for the runs after.
Run normalise(RunSetUp& set_up, const RunOptions& options);

// ---- pieces the rules are made of (spec §2.8) ----
Peeled peel(const Term& t);
Term wrap(Term core, const std::vector<Term>& frames);
Term sum_of(const std::vector<Term>& leaves);

// (15) t → λy.(t y) at arrow or R^⊥d type (spec §4.3); used by properties only.
Term eta_expand(const Term& t, const Type& type, Names& names);

} // namespace adsem::linear_negation
