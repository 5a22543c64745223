#pragma once
// The state shared by the three mutually recursive relations of seed 003 Section 3
// (φ | ρ ⊢ M ⇒ V, φ | ρ ⊢ B ⇒ b, φ | ρ ⊢ M ⇝ C) and by symbolic differentiation W.R_V(x:T.C):
// the value environment ρ, fresh names, the step budget (fuel), the rule trace, and the rule
// table `Rules` whose entries a mutant may replace.
//
// The rules are kept as entries of `Rules`, one per paper rule, each a function named after
// the rule (eval.cpp: o_add, o_call, ...; symbolic_eval.cpp: s_call, s_rd, ...;
// symbolic_diff.cpp: r_var, r_let, ...). Every recursive use goes through the table, so
// replacing one entry changes that rule everywhere. A mutant is a function `void(Rules&)`,
// e.g. `[](Rules& r) { r.r_let = my_r_let_dropping_a_term; }`.
#include "semantics/core/rule_counter.hpp"
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "semantics/simple_diff/rules.hpp"
#include "semantics/simple_diff/value.hpp"
#include "syntax/simple_diff/ast.hpp"
#include "syntax/simple_diff/names.hpp"
#include "syntax/simple_diff/scoped_env.hpp"

namespace adsem::simple_diff {

// ---- function environments and closures (seed 003 lines 243-257) ---------------------------
struct Closure;
using ClosurePtr = std::shared_ptr<const Closure>;
struct FunBinding;
// φ: a persistent list, so closures can capture it (static scoping, spec P-9).
using FunEnv = std::shared_ptr<const FunBinding>;
struct FunBinding {
  std::string f;
  ClosurePtr closure;
  FunEnv next;
};
// clo_φ(f(x:T):U. M), or clo_{n,φ}(...) in the limited language (Fig. 8) when `limit` is set.
struct Closure {
  std::string f, x;
  TypePtr param_type, result_type;
  TermPtr body;
  FunEnv env; // φ at the definition (not including f itself: O-call adds it)
  std::optional<int> limit;
};
FunEnv extend(FunEnv phi, std::string f, ClosurePtr closure);
ClosurePtr lookup(const FunEnv& phi, const std::string& f);

// ---- results of symbolic evaluation --------------------------------------------------------
struct SymResult {
  TermPtr trace;              // the trace term C
  std::optional<Value> value; // C's value in ρ, when the caller asked for it (S-ctx premise)
};

// The goal W.R_V(x:T. C) of symbolic differentiation (Fig. 6), minus C.
struct DiffGoal {
  TermPtr w;     // the cotangent W : U (open value)
  TermPtr v;     // the point V : T (open value)
  std::string x; // the differentiation variable, x ∉ FV(V, W)
  TypePtr t;     // T
};

// A call through clo_0 in the limited language (seed 003 Fig. 8, lines 914-954: L-call and
// L-scall have no rule for clo_0, so the term is stuck). Unlike running out of the step budget,
// this is a definite outcome: the approximant M^(n) has no value (Lemmas 6.4-6.6), exactly where
// the model's n-th approximant μ_n of the fixed point is ⊥. Kind fuel: the recursion bound ran out.
class ApproximantStuck : public AdsemError {
public:
  ApproximantStuck(const std::string& message, std::optional<SourcePos> pos)
      : AdsemError(ErrorKind::fuel, message, pos) {}
};

class Machine;

// ---- the rule table ------------------------------------------------------------------------
// Ordinary rules receive the values of the redex's evaluation-position subterms (`args`, in
// evaluation order: add: r, s; op, fst, snd, let, call: V; rd: point, cotangent).
using ORule =
    std::function<Value(Machine&, const FunEnv&, const Node& redex, std::span<const Value> args)>;
using PredRule = std::function<bool(Machine&, const Node& redex, const Value& arg)>;
// Symbolic rules receive the redex's evaluation-position subterms as open values (`atoms`, in
// evaluation order), and compute the trace's value when `want_value` (S-ctx needs it).
using SRule = std::function<SymResult(Machine&, const FunEnv&, const Node& redex,
                                      std::span<const TermPtr> atoms, bool want_value)>;
// Fig. 6: one entry per trace-term former; `c` is the trace being differentiated.
using RRule = std::function<TermPtr(Machine&, const DiffGoal&, const Node& c)>;

struct Rules {
  // Fig. 2 (with Fig. 8's L-letrec / L-call inside o_letrec / o_call for letrec_n)
  ORule o_add, o_op, o_let, o_fst, o_snd, o_ift, o_iff, o_letrec, o_call, o_rd;
  PredRule o_pred;
  // Fig. 4 (with Fig. 8's L-sletrec / L-scall inside s_letrec / s_call)
  SRule s_add, s_op, s_let, s_fst, s_snd, s_ift, s_iff, s_letrec, s_call, s_rd;
  // Fig. 6
  RRule r_var, r_const, r_add, r_op, r_let, r_unit, r_pair, r_fst, r_snd;
  // The primitive hooks: ev(op, V), bev(pred, V) (seed 003 line 233) and the term W.op_r(D)
  // = op_r(<D, W>_{S,U}) that R-op and R-fast build (line 237).
  std::function<Value(const std::string& op, const Value& arg)> ev;
  std::function<bool(const std::string& pred, const Value& arg)> bev;
  std::function<TermPtr(const std::string& op, const TermPtr& primal, const TermPtr& cotangent,
                        const TypePtr& s, const TypePtr& u)>
      op_r_term;

  // The paper's rules (and the shared primitive table, operations.hpp).
  static Rules paper();
};

// Which symbolic differentiation `rd` uses.
enum class DiffMode {
  linear,  // R-fast, spec §9 P-1(b): linear-size output (default)
  literal, // Fig. 6 applied literally: exponential in the number of lets (the reference)
};

struct Options {
  long fuel = 1'000'000;     // step budget; running out throws AdsemError(ErrorKind::fuel)
  bool record_trace = false; // record "rule: redex" lines
  long max_trace_lines = 20'000;
  int max_depth = 50'000; // nesting of the C++ recursion (terms and calls); the walks run
                          // on a large stack (syntax/simple_diff/large_stack.hpp)
  DiffMode diff = DiffMode::linear;
  Rules rules = Rules::paper();
  RuleCounter* counter = nullptr; // rule coverage: each step is added here too (campaigns)
};

struct TraceLine {
  Rule rule;
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
  // placeholder from every level instead of throwing (issue 10: unwinding the whole walk was
  // 10-18% of an adequacy campaign). A rule may return the result of `eval` as its own (the
  // placeholder passes up); code that USES the value must call throw_if_stuck() first (run.cpp,
  // symbolic_eval.cpp), which throws the same ApproximantStuck the rule used to throw.
  Value eval(const FunEnv& phi, const TermPtr& m);
  // φ | ρ ⊢ B ⇒ b (eval.cpp)
  bool eval_bool(const FunEnv& phi, const TermPtr& b);
  // ρ(V) for an open value V (eval.cpp)
  Value value_of(const Node& v);
  // φ | ρ ⊢ M ⇝ C, M in tail position (symbolic_eval.cpp)
  TermPtr sym(const FunEnv& phi, const TermPtr& m);
  SymResult sym(const FunEnv& phi, const TermPtr& m, bool want_value);
  // W.R_V(x:T. C) with the configured DiffMode; C's binders are renamed apart first
  // (spec P-3) (symbolic_diff.cpp).
  TermPtr differentiate(const DiffGoal& goal, const TermPtr& c);
  // One application of the Fig. 6 table (C already renamed apart) (symbolic_diff.cpp).
  TermPtr R(const DiffGoal& goal, const TermPtr& c);

  ScopedEnv<Value>& rho() { return rho_; }
  NameSupply& names() { return names_; }
  const Options& options() const { return options_; }
  const Rules& rules() const { return options_.rules; }

  // L-call at clo_0: records the stuck call and returns the placeholder (see eval).
  Value stuck_at_clo_0(ApproximantStuck stuck);
  bool is_stuck() const { return stuck_.has_value(); }
  void throw_if_stuck() const {
    if (stuck_) throw *stuck_;
  }

  // Counts one rule application against the fuel and records it when tracing.
  void step(Rule rule, const Node* at = nullptr);
  // Counts work that is not a rule application (renaming traces apart) against the fuel only.
  void charge(long units, const Node* at = nullptr);
  long steps() const { return steps_; }
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

private:
  Options options_;
  ScopedEnv<Value> rho_;
  NameSupply names_;
  long steps_ = 0;
  long work_ = 0;
  int depth_ = 0;
  std::vector<TraceLine> trace_;
  std::optional<ApproximantStuck> stuck_;
  // Rule firings by Rule, added to options_.counter (a map keyed by name) when the machine ends:
  // a string-keyed map lookup per step was 3% of an adequacy campaign (issue 10).
  std::array<long, static_cast<std::size_t>(Rule::R_fast) + 1> fired_{};
};

// Out of fuel (step or depth budget): "unknown". Not an ApproximantStuck, which is definite.
bool is_unknown(const AdsemError& e);

// Where a rule is stuck (an `ev`/`bev` outside its domain, an unbound name): a domain error
// located at the redex when it has a source position.
[[noreturn]] void stuck(ErrorKind kind, const std::string& message, const Node& at);

} // namespace adsem::simple_diff
