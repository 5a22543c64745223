#pragma once
// Reduction strategies (spec §4.7 [OURS]; the paper specifies none, L353):
//  1. `normalise`: the reference normaliser, innermost (applicative-order) STRONG normalisation:
//     normalise the children, contract the root, re-normalise the contractum;
//  2. `step`: one leftmost-innermost contraction anywhere in the term (the small-step reducer
//     used for per-step subject reduction and soundness).
// Both decide where a rule is tried and ask the book (rules.hpp) which one fires; a step is a rule
// of Fig. 3 or spec §4.5 (the clauses of T_x that a (T) step fires are recorded for rule coverage
// and `eval --trace`, but are part of that one step). Fuel bounds the number of contractions and,
// through the work cap (fuel * work_per_step units: nodes visited and T_x summands built), the
// work, as T_x output is exponential as a tree (spec §9.6); running out is
// AdsemError(ErrorKind::fuel).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "semantics/perturbative/rules.hpp"

namespace adsem::perturbative {

struct RunOptions {
  long fuel = 1'000'000;   // contractions
  long work_per_step = 64; // nodes visited or built by T_x allowed per unit of fuel
  bool trace = false;
  RuleCounter* counter = nullptr; // rule coverage: firings are added here too (campaigns)
};

struct Run {
  Term result;
  long steps = 0;
  // "rule: contracted redex" per step, and "clause: s" per clause of T_x (when asked)
  std::vector<std::string> trace;
  std::map<std::string, long> rule_counts; // firings per rule name (T_x clauses included)
};

Run normalise(const Term& m, const Rules& book, const RunOptions& options = {});

struct Step {
  std::string rule;
  Term result; // the whole term after the step
};
// `work` (optional) is spent on the T_x that a (T) step builds.
std::optional<Step> step(const Term& m, const Rules& book, WorkBudget* work = nullptr);

// SEM-9's third strategy, a redex chosen anywhere (spec SEM-9): the redexes of m in pre-order
// (a bag where ν fires, then its summands; a simple term where a rule of Fig. 3 or §4.5 fires,
// then its operand and its argument), under λ too and whatever the children's form, and one step
// at the redex numbered `which` (nullopt when there are not that many).
std::size_t redex_count(const Term& m, const Rules& book);
std::optional<Step> step_at(const Term& m, const Rules& book, std::size_t which,
                            WorkBudget* work = nullptr);

// Small-step to normal form (leftmost-innermost), the trace holding the whole term after each
// step ("rule: term") when asked.
Run reduce_small_step(const Term& m, const Rules& book, const RunOptions& options = {});

} // namespace adsem::perturbative
