#pragma once
// The state shared by the three mutually recursive relations of seed 003 Section 3
// (φ | ρ ⊢ M ⇒ V, φ | ρ ⊢ B ⇒ b, φ | ρ ⊢ M ⇝ C) and by symbolic differentiation W.R_V(x:T.C):
// the value environment ρ, fresh names, the step budget (fuel), the rule trace, and the rule
// book (rules.hpp) whose entries fire.
//
// Every rule is one entry of the book; the strategies (eval.cpp, symbolic_eval.cpp,
// symbolic_diff.cpp) derive a redex's premises, `select` the entry that fires and `fire` it: the
// step is counted and traced under the entry's name. A mutant is a patch of the book
// (properties/simple_diff/mutants.cpp), never a branch here.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "semantics/simple_diff/relations.hpp"
#include "semantics/simple_diff/rules.hpp"
#include "semantics/simple_diff/value.hpp"
#include "syntax/simple_diff/ast.hpp"
#include "syntax/simple_diff/names.hpp"
#include "syntax/simple_diff/scoped_env.hpp"

namespace adsem::simple_diff {

// A call through clo_0 in the limited language (seed 003 Fig. 8, lines 914-954: L-call and
// L-scall have no rule for clo_0, so the term is stuck). Unlike running out of the step budget,
// this is a definite outcome: the approximant M^(n) has no value (Lemmas 6.4-6.6), exactly where
// the model's n-th approximant μ_n of the fixed point is ⊥. Kind fuel: the recursion bound ran out.
class ApproximantStuck : public AdsemError {
public:
  ApproximantStuck(const std::string& message, std::optional<SourcePos> pos)
      : AdsemError(ErrorKind::fuel, message, pos) {}
};
// The call `call` through clo_0.
ApproximantStuck approximant_stuck(const Node& call);

// Which symbolic differentiation `rd` uses.
enum class DiffMode {
  linear,  // R-fast, spec §9 P-1(b): linear-size output (default)
  literal, // Fig. 6 applied literally: exponential in the number of lets (the reference)
};

struct Options {
  long fuel = 1'000'000;     // step budget; running out throws AdsemError(ErrorKind::fuel)
  bool record_trace = false; // record "rule: redex" lines
  long max_trace_lines = 20'000;
  // Nesting of the C++ recursion (terms and calls); the walks run on a large stack
  // (syntax/core/large_stack.hpp). rd on a let series nests up to nine levels a stage (the RNN
  // h_k = tanh(x h_{k-1} + c_k): 90,003 at 10,000 stages), so the complexity families of 10,000
  // stages (spec §9 P-1(b)) fit.
  int max_depth = 100'000;
  DiffMode diff = DiffMode::linear;
  RulesPtr rules = paper_rules(); // the book whose rules fire (a mutant's patched book)
  RuleCounter* counter = nullptr; // rule coverage: each step is added here too (campaigns)
};

struct TraceLine {
  std::string rule;   // the entry's name
  std::string detail; // the redex (abbreviated), when recorded
};

class Machine {
public:
  explicit Machine(Options options = {});
  ~Machine(); // adds the rule firings to options().counter
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Fresh names avoid every identifier of `program` (call before running it).
  void avoid_names(const Node& program) { names_.avoid_all(program); }

  // φ | ρ ⊢ M ⇒ V (eval.cpp). When M reaches a call through clo_0 (L-call has no rule for it),
  // the evaluation stops there: eval records the ApproximantStuck (stuck_at_clo_0) and returns a
  // placeholder from every level instead of throwing (unwinding the whole walk was
  // 10-18% of an adequacy campaign). A rule may return the result of `eval` as its own (the
  // placeholder passes up); code that USES the value must call throw_if_stuck() first (run.cpp,
  // symbolic_eval.cpp), which throws the same ApproximantStuck the rule used to throw. O-op
  // outside its primitive's domain (stuck, a domain error) stops it the same way
  // (stuck_outside_domain), and throw_if_stuck() throws that AdsemError.
  Value eval(const FunEnv& phi, const Term& m);
  // φ | ρ ⊢ B ⇒ b (eval.cpp)
  bool eval_bool(const FunEnv& phi, const Term& b);
  // The rule of ⇒ that decides a boolean redex whose argument is already evaluated (eval.cpp).
  bool decide(const Boolean::Redex& redex);
  // ρ(V) for an open value V (eval.cpp)
  Value value_of(const Node& v);
  // φ | ρ ⊢ M ⇝ C, M in tail position (symbolic_eval.cpp). A call through clo_0 (L-scall has no
  // rule for it) stops the trace as it stops eval: recorded, a placeholder trace (and no value)
  // passed up from every level; the caller checks is_stuck() before using the trace (rd.cpp,
  // run.cpp). Thrown from deep in the walk, it was 2% of an adequacy campaign.
  Term sym(const FunEnv& phi, const Term& m);
  SymResult sym(const FunEnv& phi, const Term& m, bool want_value);
  // W.R_V(x:T. C) with the configured DiffMode; C's binders are renamed apart (spec P-3): by a
  // renamed copy for Fig. 6, by R-fast's A-normal form itself (symbolic_diff.cpp). C is taken by
  // value, so that the caller's last reference can be released once C has been read.
  Term differentiate(const DiffGoal& goal, Term c);
  // One application of the Fig. 6 table (C already renamed apart) (symbolic_diff.cpp).
  Term R(const DiffGoal& goal, const Term& c);

  // 0_T (seed 003 lines 128-130), one term per type for the whole run: the rules of Fig. 6 and
  // R-fast ask for it at every variable, constant and projection, and terms are immutable, so
  // one shared copy replaces a new one per request (fewer nodes to build and release).
  const Term& zero(const Type& t);

  ScopedEnv<Value>& rho() { return rho_; }
  const ScopedEnv<Value>& rho() const { return rho_; }
  NameSupply& names() { return names_; }
  const Options& options() const { return options_; }
  const Rules& rules() const { return *options_.rules; }

  // The first entry of relation R that can fire on the redex (nullptr: none; the strategy
  // decides what that means).
  template <class R> const Rule<R>* select(const typename R::Redex& redex) const {
    return options_.rules->select<R>(*this, redex);
  }
  // Fires the entry on the redex: one step under its name (a rule that counts its own steps
  // takes none here), then its result.
  template <class R> typename R::Output fire(const Rule<R>& rule, const typename R::Redex& redex) {
    if constexpr (!counts_own_steps<R>) step(rule.info, &R::node(redex));
    return rule.result(*this, redex, rule.info);
  }

  // L-call at clo_0: records the stuck call and returns the placeholder (see eval).
  Value stuck_at_clo_0(ApproximantStuck stuck);
  // O-op outside the domain: records its domain error and returns the placeholder (see eval).
  Value stuck_outside_domain(AdsemError error);
  bool is_stuck() const { return stuck_.has_value(); }
  // The call through clo_0 the walk is stuck at, or nullptr.
  const ApproximantStuck* stuck_call() const {
    return stuck_ ? std::get_if<ApproximantStuck>(&*stuck_) : nullptr;
  }
  // The domain error the walk is stuck at, or nullptr.
  const AdsemError* domain_error() const {
    return stuck_ ? std::get_if<AdsemError>(&*stuck_) : nullptr;
  }
  void throw_if_stuck() const {
    if (stuck_) std::visit([](const auto& error) { throw error; }, *stuck_);
  }

  // Counts one application of `rule` against the fuel and records it when tracing.
  void step(const RuleInfo& rule, const Node* at = nullptr);
  // Counts work that is not a rule application (renaming traces apart) against the fuel only.
  void charge(long units, const Node* at = nullptr);
  long steps() const { return steps_; }
  // The steps that can still be taken before the budget runs out.
  long steps_left() const { return options_.fuel - steps_ - work_ / 8; }
  const std::vector<TraceLine>& trace() const { return trace_; }

  // Recursion guard: every recursive walk holds one per level.
  class Depth {
  public:
    explicit Depth(Machine& m);
    ~Depth() { --m_.depth_; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;

  private:
    Machine& m_;
  };
  // The levels a walk enters in a loop where it used to call itself (a chain of lets, each the
  // body of the one before): each enter() counts as one Depth would, and all are left together.
  // The guard trips at the same level as before, without a stack frame per level.
  class Levels {
  public:
    explicit Levels(Machine& m) : m_(m) {}
    ~Levels() { m_.depth_ -= count_; }
    Levels(const Levels&) = delete;
    Levels& operator=(const Levels&) = delete;
    void enter();

  private:
    Machine& m_;
    int count_ = 0;
  };

private:
  // A let and the lets in its body, one after another (eval.cpp).
  Value eval_lets(const FunEnv& phi, const Term& first);
  // One more level of the recursion guard (Depth, Levels).
  void enter_level();

  Options options_;
  ScopedEnv<Value> rho_;
  NameSupply names_;
  long steps_ = 0;
  long work_ = 0;
  int depth_ = 0;
  std::vector<TraceLine> trace_;
  // where the walk is stuck: a call through clo_0, or an O-op's domain error
  std::optional<std::variant<ApproximantStuck, AdsemError>> stuck_;
  // zero(): by type node (the type is held, so its address names it for the machine's life)
  std::vector<std::pair<Type, Term>> zeros_;
  // Rule firings by position in the book, added to options_.counter (a map keyed by name) when
  // the machine ends: a string-keyed map lookup per step was 3% of an adequacy campaign.
  std::vector<long> fired_;
};

// Out of fuel (step or depth budget): "unknown". Not an ApproximantStuck, which is definite.
bool is_unknown(const AdsemError& e);

// Where a rule is stuck (an `ev`/`bev` outside its domain, an unbound name): a domain error
// located at the redex when it has a source position.
[[noreturn]] void stuck(ErrorKind kind, const std::string& message, const Node& at);

} // namespace adsem::simple_diff
