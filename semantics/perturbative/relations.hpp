#pragma once
// The relations of seed 004 whose rules are entries of perturbative's rule book
// (semantics/core/rule_table.hpp), the book's type, and the engine the rules fire in. Each
// relation says what its rules receive and produce; the strategies (strategy.cpp) decide where a
// rule is tried, the T_x traversal (transform.cpp) where a clause of Fig. 4 is.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "semantics/core/rule_table.hpp"
#include "semantics/core/work_budget.hpp"
#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

class Engine;

// The dispatch index of the term relations is keyed by Form; the last form is `primitive`.
inline constexpr std::size_t form_count = 8;
static_assert(static_cast<std::size_t>(Kind::primitive) + 1 == form_count);

// s → N (Fig. 3 and spec §4.5): a simple term s at a position the strategy visits (its redex
// node is the root of s); the output is the contractum, a bag.
struct Reduction {
  using Context = Engine;
  using Kind = adsem::perturbative::Kind;
  static constexpr std::size_t kind_count = form_count;
  struct Redex {
    const Simple& node;
  };
  using Output = Term;
  static Kind kind(const Redex& r) { return r.node.kind; }
  static const Simple& node(const Redex& r) { return r.node; }
};

// L[r1] + L[r2] → L[r1 + r2] (ν, spec §4.5 [OURS]): a bag whose summands may merge.
enum class BagKind { bag };
struct Merge {
  using Context = Engine;
  using Kind = BagKind;
  static constexpr std::size_t kind_count = 1;
  struct Redex {
    const Term& bag;
  };
  using Output = Term;
  static Kind kind(const Redex&) { return BagKind::bag; }
};

// T_x s (Fig. 4): one clause per former of s. The traversal (T_x 0 = 0, T_x (s + N) = T_x s +
// T_x N: T_x is additive) has already transformed s's subterms; the clause builds T_x s.
struct Tx {
  using Context = Engine;
  using Kind = adsem::perturbative::Kind;
  static constexpr std::size_t kind_count = form_count;
  struct Redex {
    const Simple& node;                // s (a binder named x already renamed away)
    const std::string& x;              // the variable T_x differentiates
    const Type& tangent_sigma;         // Tσ, the type x has in T_x s
    const Term* tx_operand = nullptr;  // T_x of the λ body, the ι/T/π operand, or the operator
    const Term* tx_argument = nullptr; // T_x of an application's argument
  };
  using Output = Term;
  static Kind kind(const Redex& r) { return r.node.kind; }
  static const Simple& node(const Redex& r) { return r.node; }
};

// D(f, v, a) := π1 (T f (v, a)) (spec §2.7): the derivative macro, the term `grad` and the AD
// properties build for "the derivative of f at a along v". Not a step of the calculus: its one
// entry is a derived form, expanded through the book so that a patch can change it.
enum class MacroKind { derivative };
struct Macro {
  using Context = Engine;
  using Kind = MacroKind;
  static constexpr std::size_t kind_count = 1;
  struct Redex {
    const Term& f;       // f : σ → τ
    const Term& tangent; // v : σ
    const Term& point;   // a : σ
  };
  using Output = Term;
  static Kind kind(const Redex&) { return MacroKind::derivative; }
};

// "rule: detail" as traces print it (the detail abbreviated to 2000 characters; none: "rule").
std::string trace_line(const std::string& rule, std::string detail);

using Rules = RuleBook<Reduction, Merge, Tx, Macro>;
using RulesPtr = std::shared_ptr<const Rules>;
using RulesPatch = Rules::Patch;

// What rules fire in: the book, the work cap their T_x construction spends (nullptr:
// unbounded), and the firings recorded by position in the book (rule coverage). A strategy counts
// Fig. 3's steps itself; a clause of Fig. 4 is part of the (T) step that builds T_x, so it is
// recorded (and traced, when asked) but takes no step of its own: the paper's step count, the
// fuel and `adsem reduce`'s one line per step stay those of Fig. 3.
class Engine {
public:
  explicit Engine(const Rules& book, WorkBudget* work = nullptr,
                  std::vector<std::string>* trace = nullptr)
      : book_(book), work_(work), trace_(trace), fired_(book.size(), 0) {}

  const Rules& book() const { return book_; }
  WorkBudget* work() const { return work_; }

  // The first entry of R that can fire on the redex (nullptr: none).
  template <class R> const Rule<R>* select(const typename R::Redex& redex) const {
    return book_.select<R>(*this, redex);
  }
  // Records one firing of `rule` (rule coverage).
  void record(const RuleInfo& rule) { ++fired_[rule.position]; }
  // The firings so far by position in the book, and `count` more of the entry at `position`
  // (the normaliser replays a walk it has already made).
  const std::vector<long>& fired() const { return fired_; }
  void record(std::size_t position, long count) { fired_[position] += count; }
  // Fires a clause of T_x: recorded, traced as "clause: s" when tracing, no step.
  Term fire(const Rule<Tx>& clause, const Tx::Redex& redex);

  // The firings by rule name (each rule that fired at least once).
  void add_firings(std::map<std::string, long>& counts) const;
  void add_firings(RuleCounter& counter) const;

private:
  const Rules& book_;
  WorkBudget* work_;
  std::vector<std::string>* trace_;
  std::vector<long> fired_;
};

} // namespace adsem::perturbative
