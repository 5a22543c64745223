#pragma once
// The steps of the cost model: every step of the machine and of the interpretation of Deltas is a
// named, enumerable Step (the entries of the rule book that are one step name theirs in `extra`,
// relations.hpp). Taking a step costs one unit of fuel, counts it, and, when asked, appends
// "step: detail" to the trace. Running out of fuel is AdsemError(fuel).
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::delta_reverse {

enum class Step {
  // source evaluation, big-step CBV left to right (spec §4.1; the paper says only "call-by-value",
  // L603, and fixes left-to-right order through its translation, L456-470)
  E_Var,
  E_Lam,
  E_App,
  E_Let,
  E_Pair,
  E_Fst,
  E_Snd,
  E_Inl,
  E_Inr,
  E_Case_Inl,
  E_Case_Inr,
  E_Real,
  E_Leaf,
  E_Op,
  E_Apply_Op, // δ_op: a primitive applied to its argument (one step, spec §4.1 cost model)
  // target terms (spec §4.2)
  E_Comp,  // pure e / do {..} / deltaLet e evaluate to a suspended computation comp(ρ, c)
  E_Delta, // Delta, Delta2 and δS constructor terms build values
  // the monad (Fig. 10, L494-537): running a computation on the DeltaState
  M_Pure,
  M_Bind,
  M_DeltaLet,
  // runDelta (Fig. 10): one Let per binding, newest innermost
  RunDelta_Wrap,
  // eval (Fig. 10, L501-522)
  Eval_Zero,
  Eval_Scale,
  Eval_Add,
  Eval_Var,
  Eval_Let_Nothing,
  Eval_Let_Just,
  // the array version (§7.3, L585-597): an iterative backward sweep over the bindings
  Sweep_Zero,
  Sweep_Scale,
  Sweep_Add,
  Sweep_Var,
  Sweep_Skip,
  Sweep_Binding,
  // eval_2 (Fig. 8, L392-401)
  Eval2_Zero,
  Eval2_OneHot,
  Eval2_Scale,
  Eval2_Add,
  // the polytypic operations on δS = R^a (Drev1_S, §4.3): one per vector operation
  Dense_Zero,
  Dense_Oplus,
  Dense_Otimes,
  // the array extension (§10.2, L848-862; spec §4.10)
  E_Array_Op,    // index[A], build[A] evaluate to function values
  E_Apply_Index, // index (v, i) ⇓ v_i
  E_Apply_Build, // build (n, f) ⇓ [f 0, ..., f (n-1)]
  M_Sequence,    // sequence: the elements' computations run in index order
  E_Apply_SumV,  // sumV[A] [v_0, ..., v_(n-1)] ⇓ v_0 + ... + v_(n-1) (spec §9.12, an extension)
  count_
};

inline constexpr std::size_t step_count = static_cast<std::size_t>(Step::count_);
std::string_view step_name(Step r);
// Every step, in order (for coverage tests).
std::vector<Step> all_steps();

struct Ledger {
  long fuel = 1'000'000;
  bool trace = false;
  long steps = 0;
  std::array<long, step_count> counts{};
  std::vector<std::string> lines;
  // The campaign's rule coverage (shared by every ledger of one trial); null outside campaigns.
  std::shared_ptr<RuleCounter> coverage = nullptr;

  void fire(Step r, const std::function<std::string()>& detail = nullptr) {
    if (steps >= fuel)
      throw AdsemError(ErrorKind::fuel, "out of fuel after " + std::to_string(steps) + " steps");
    ++steps;
    const auto i = static_cast<std::size_t>(r);
    ++counts[i];
    if (coverage) ++covered(i)->second;
    if (trace) lines.push_back(std::string(step_name(r)) + (detail ? ": " + detail() : ""));
  }
  // A step that is no Step of the cost model: a user rule (`--rules`), counted under its name.
  void fire_named(const std::string& name, const std::function<std::string()>& detail = nullptr) {
    if (steps >= fuel)
      throw AdsemError(ErrorKind::fuel, "out of fuel after " + std::to_string(steps) + " steps");
    ++steps;
    ++named[name];
    if (coverage) coverage->add(name);
    if (trace) lines.push_back(name + (detail ? ": " + detail() : ""));
  }
  std::map<std::string, long> named; // the firings of user rules
  long count(Step r) const { return counts[static_cast<std::size_t>(r)]; }
  std::map<std::string, long> rule_counts() const;

private:
  // The coverage's entry of step i, looked up by name once per ledger and step: a map entry stays
  // where it is while others are added, and a trial's ledgers end before the campaign harvests
  // the counter. (A lookup by name at every step, its string compares included, was an eighth of
  // a delta-reverse/array-adequacy trial.)
  RuleCounts::iterator covered(std::size_t i) {
    if (entries_for_ != coverage.get()) {
      entries_for_ = coverage.get();
      entries_.fill(coverage->fired.end());
    }
    RuleCounts::iterator& at = entries_[i];
    if (at == coverage->fired.end())
      at = coverage->fired.try_emplace(std::string(step_name(static_cast<Step>(i))), 0).first;
    return at;
  }
  const RuleCounter* entries_for_ = nullptr;
  std::array<RuleCounts::iterator, step_count> entries_{};
};

} // namespace adsem::delta_reverse
