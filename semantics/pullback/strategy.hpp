#pragma once
// The deterministic call-by-value strategy of seed 000 (Lemma 3.8 L367-369; spec §4.7): `step`
// finds THE decomposition C[r] (evaluation contexts of §3.4 L359, extended as in spec §4.6: the
// book's context entries, contexts.hpp), asks
// the rule book (rules.hpp) which entry fires on r (`select` on the relation of r's shape,
// relations.hpp) and contracts r with the entry's result; the step is counted and traced under
// the entry's name. Pullback redexes (rows 9-20, Fig. 3 L240-248) and their premises (JAC, JAC1;
// spec §4.5), derived before the row is selected, live in conquer.cpp. Every step, including the
// steps of premises, is counted against the fuel; running out throws AdsemError(ErrorKind::fuel).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "semantics/pullback/contexts.hpp"
#include "semantics/pullback/node_memo.hpp"
#include "semantics/pullback/relations.hpp"
#include "semantics/pullback/rules.hpp"
#include "syntax/pullback/ast.hpp"
#include "syntax/pullback/node_table.hpp"

namespace adsem::pullback {

struct RunOptions {
  long fuel = 200'000; // steps, premise steps included
  bool trace = false;  // "rule: term" after each top-level step
  int max_premise_depth = 24;
  RuleCounter* counter = nullptr; // rule coverage: each firing is added here too (campaigns)
  // Fill Run::rule_counts (a map by rule name, built at the end of normalise). [perf] Off where
  // only the result is read: pullback/adequacy normalises every trial's term.
  bool rule_counts = true;
};

struct Step {
  std::string rule;
  Term result;           // the whole term after the step
  std::vector<int> path; // child indices from the root to the contracted redex
};

struct Run {
  Term result;
  long steps = 0;                          // top-level steps
  long premise_steps = 0;                  // steps inside premises
  std::vector<std::string> trace;          // when asked
  std::map<std::string, long> rule_counts; // firings per rule, premises included (when asked)
};

// Called after every step (premise = true inside JAC/JAC1 premises).
using StepObserver = std::function<void(const Term& before, const Step& step, bool premise)>;

class Machine {
public:
  explicit Machine(Rules rules = {}, RunOptions options = {});
  ~Machine(); // adds the rule firings to options.counter
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // One step of the strategy, or nullopt when t is a normal form ("value", §4.8).
  std::optional<Step> step(const Term& t);
  Run normalise(const Term& t);
  // Every decomposition t = C[r] by the context grammar read relationally (all productions of
  // C, not the step function's order): the paths of the redexes. Lemma 3.8: at most one, and it is
  // step's. Values have none.
  std::vector<std::vector<int>> decompositions(const Term& t);

  // Steps are observed one at a time while `wanted` holds (always when it is empty); once it does
  // not, after a top-level step, the run goes on unobserved (the same firings, terms and fuel as
  // stepping: run_refocusing) and its later steps are not built one by one for nobody. A premise's
  // steps are observed while `premises_wanted` holds too (asked before a premise's run and after
  // each of its steps); once it does not, the rest of that premise's run goes on unobserved.
  void observe(StepObserver observer, std::function<bool()> wanted = {},
               std::function<bool()> premises_wanted = {}) {
    observer_ = std::move(observer);
    observation_wanted_ = std::move(wanted);
    premise_observation_wanted_ = std::move(premises_wanted);
  }
  // Called with every Jacobian body a JAC premise returns: (y, σ, M, V, v, S) (spec §6 P12).
  using JacObserver = std::function<void(const std::string& y, const Type& sigma, const Term& m,
                                         const Term& v_value, const std::string& v, const Term& s)>;
  void observe_premises(JacObserver observer) { jac_observer_ = std::move(observer); }
  // Called with every row of rows 9-20 that fires (top level, in premises and in JAC1): the
  // entry, the redex with its premises derived, and the entry's result (spec §6 P23).
  using RowObserver =
      std::function<void(const RuleInfo& rule, const Pullback::Redex& row, const Term& result)>;
  void observe_rows(RowObserver observer) { row_observer_ = std::move(observer); }
  // Firings per rule name so far, premises included.
  std::map<std::string, long> rule_counts() const;
  const Rules& rules() const { return rules_; }
  // [perf] Tells is_let_series_remembered that `series` is a let series, which its caller has
  // proved (rule 8's rest: let_series.cpp), so that the next stage's question is not a walk.
  void remember_let_series(Term series) { told_let_series_ = std::move(series); }

  // Whether the redex t being contracted is held only by the run's own context (its focus and
  // frames, which drop it for the contractum), and its path from the root too: nothing else will
  // read its nodes again, so a rule may edit in place those that only their parent holds
  // (substitute_in_place). Only while refocusing (an observed step's terms are the observer's).
  bool holds_alone(const Term& t) const;

  // The first entry of relation R that can fire on the redex (nullptr: none).
  template <class R> const Rule<R>* select(const typename R::Redex& redex) const {
    return rules_.book->select<R>(*this, redex);
  }

  // Premises (spec §4.5). JAC: the Jacobian body of λy.M at V for the tangent variable v
  // (nullopt = FAIL). JAC1: one row of §4.4 on ((Ω λy.E)·ω')V; returns (v, S).
  std::optional<Term> jac_premise(const std::string& y, const Type& sigma, const Term& m,
                                  const Term& v_value, const std::string& v);
  std::optional<std::pair<std::string, Term>> jac1_premise(const std::string& y, const Type& sigma,
                                                           const Term& e, const Term& v_value);

private:
  // A contraction: the book position of the entry that fired and the contractum.
  struct Found {
    std::size_t rule = 0;
    Term contractum;
    long firings = 1; // > 1: a run of the same rule at one redex, fused (Combine::Extra)
  };
  std::optional<Found> contract_root(const Term& t);
  std::optional<Found> pullback_root(const Term& t);
  std::optional<Found> administrative_root(const Term& t);
  // Rows 9-20 of §4.4 on ((Ω λy:σ.B)·ω) V (ω, V values): the premises derived, the row selected
  // and its result, or nullopt (stuck: value 1, value 2, or a failed premise). conquer.cpp.
  std::optional<Found> fire_row(Pullback::Redex& row);
  bool derive_premises(Pullback::Redex& row);
  // [perf] The search for THE decomposition C[r] keeps C as a stack of frames (the
  // node and the child the hole is in), so that a step rebuilds nothing and the next search can
  // resume at the hole (refocusing) instead of walking from the root again.
  struct Frame {
    Term node;
    int kid = 0;
    bool clean = true; // this frame and those above: every sibling searched before was pure
  };
  // The context of the innermost run_refocusing (holds_alone reads it), or null.
  const Term* focus_ = nullptr;
  const std::vector<Frame>* frames_ = nullptr;
  std::optional<Found> search(const Term& t, int depth, std::vector<Frame>& frames);
  // Whether search answers at once that t holds no redex (a leaf, or a subterm found inert
  // before), with reached_ brought up as the search does; search_unknown: the search past it.
  bool known_inert(const Term& t, int depth);
  std::optional<Found> search_unknown(const Term& t, int depth, std::vector<Frame>& frames);
  std::optional<Found> search_in(const Term& t, int depth, std::vector<Frame>& frames);
  std::optional<Found> search_kids(const Term& t, int after, int depth, bool clean,
                                   std::vector<Frame>& frames);
  Term run_refocusing(const Term& t, long& steps);
  void decompose(const Term& t, std::vector<int>& path, std::vector<std::vector<int>>& out);
  bool is_value(const Term& t);
  void count(std::size_t rule);
  Term normalise_premise(const Term& t);
  Term unfolded_premise(const std::string& y, const Type& sigma, const Term& m, std::string& om,
                        const Term& v_value);

  Rules rules_;
  // The book's evaluation contexts by node kind (contexts.hpp). [perf] The paper's are made once;
  // a patched book's (a mutant's, a user's rules) here.
  std::unique_ptr<const Contexts> own_contexts_;
  const Contexts* contexts_;
  RunOptions options_;
  long fuel_used_ = 0;
  int premise_depth_ = 0;
  std::vector<long> fired_; // firings by position in rules_.book
  StepObserver observer_;
  std::function<bool()> observation_wanted_;
  std::function<bool()> premise_observation_wanted_;
  bool premise_observed() const {
    return observer_ && !observation_over_ &&
           (!premise_observation_wanted_ || premise_observation_wanted_());
  }
  bool observation_over_ = false; // the rest of a run after observation_wanted_ said no
  JacObserver jac_observer_;
  RowObserver row_observer_;
  std::map<const Node*, bool> value_cache_; // decompositions(): is_value per node
  // [perf] decompositions(): whether contract_root on a scratch machine finds a redex at a node,
  // and the rules that scratch machine fired (its premises), by node. A node is immutable and a
  // scratch machine starts empty, so the answer is the node's own; the firings are counted again
  // at each later ask, as the scratch machine counted them. The entry holds the node.
  struct RootProbe {
    Term node;
    bool redex = false;
    std::vector<std::pair<std::size_t, long>> fired; // (book position, firings), the nonzero ones
  };
  std::unordered_map<const Node*, RootProbe> root_probes_;
  bool probe_root(const Term& t);
  // [perf] Subterms in which search found no redex, with the depth its search reached
  // below them. A term is immutable and shared, so once the search found nothing in it, it finds
  // nothing there in every later step: the search skips it instead of walking every value again.
  // Only searches whose failed attempts were pure are kept: a failed pullback redex (rows 9-20)
  // runs premises and draws fresh names, which must happen again, as before, on every search.
  // The entry holds the node's block, not the node (its address is not reused while cached): a
  // term the run has dropped is freed with it instead of with the machine. run_refocusing
  // rebuilds in place only its frames' nodes, which each held a redex; a node a rule edits in
  // place (substitute_in_place) loses its inert mark, so its entry is not asked again until the
  // search places the node's answer anew (insert_or_assign).
  NodeTable<int, WeakNode<const Node>> inert_;
  // [perf] is_let_series of the let nodes asked before (is_let_series_remembered).
  NodeMemo<bool> let_series_{1 << 20};
  bool is_let_series_remembered(const Term& t);
  // The let series rule 8 made last (remember_let_series), held until it is asked about: the
  // next stage asks at once (the strategy's next redex is the pullback around it).
  Term told_let_series_;
  long impure_attempts_ = 0; // contract_root calls that ran rows 9-20 (premises, fresh names)
  long premise_runs_ = 0;    // normalise_premise calls
  // [perf] JAC(y, M, V) (spec §4.5) normalises ((Ω λy.M)·ω') V, and the strategy first takes
  // (Ω λy.M)·ω' to its normal form U (A*, rules 7 and 8: seed 000 §3.2 L205-219, Fig. 3 L236-240)
  // before V is read at all. A λ body M is differentiated at several points (one function called
  // at several arguments; about a quarter of adequacy's JAC premises), so U is remembered per M
  // (weakly: an entry never keeps M alive) with what its run did: the firings, the steps and the
  // fresh names drawn, which a later premise on M adds again instead of running it. Its ω' stays
  // the one U was made with (ω' is only read back by name, and is checked fresh for the new V).
  struct Unfolding {
    std::string y;
    Type sigma;
    std::string om;
    Term unfolded;
    std::vector<std::pair<std::size_t, long>> fired; // (book position, firings), the nonzero ones
    long steps = 0;
    long names = 0; // fresh-name numbers drawn
  };
  NodeMemo<Unfolding> unfoldings_{1 << 16};
  int reached_ = 0;         // deepest depth search visited in the current search
  bool refocusing_ = false; // inside run_refocusing (no step is observed one by one)
};

// Convenience: normalise with the paper's rules or a mutant.
Run normalise(const Term& t, const Rules& rules = {}, const RunOptions& options = {});

// V_p: the meta-projection of a value along the path p of an atom y_p (spec §2.5 ID-1).
Term meta_project(const Term& v, const Term& atom);
// t_p: the atom with root t and the path p of the atom y_p.
Term path_atom(const Term& root, const Term& atom);

} // namespace adsem::pullback
