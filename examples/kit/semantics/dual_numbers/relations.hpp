#pragma once
// The relations whose rules are entries of dual-numbers' rule book (semantics/core/rule_table.hpp),
// the book's type and the machine the rules fire in. The strategy (machine.cpp) decides where a
// rule is tried; the macro's walk (macro.cpp) where a clause of D is.
#include <memory>
#include <string>
#include <vector>

#include "semantics/core/rule_counter.hpp"
#include "semantics/core/rule_table.hpp"
#include "syntax/dual_numbers/term.hpp"

namespace adsem::dual_numbers {

class Machine;

// t → t' at the redex the call-by-value strategy found: its operands are already values.
struct Reduction {
  using Context = Machine;
  using Kind = dual_numbers::Kind;
  static constexpr std::size_t kind_count = dual_numbers::kind_count;
  struct Redex {
    const Node& node;
  };
  using Output = Term;
  static Kind kind(const Redex& r) { return r.node.kind; }
  static const Node& node(const Redex& r) { return r.node; }
  // A rule added by a user's rule file (`--rules`) is also tried at a node whose operands are not
  // all values yet, before the strategy steps inside it; the paper's rules never are.
  struct Extra {
    bool before_operands = false;
  };
};

// D t, one clause per construct: the walk has already built D of t's children.
struct Macro {
  using Context = Machine;
  using Kind = dual_numbers::Kind;
  static constexpr std::size_t kind_count = dual_numbers::kind_count;
  struct Redex {
    const Node& node;
    Term da = nullptr; // D of the first child (λ's body, the function, the operand)
    Term db = nullptr; // D of the second child
  };
  using Output = Term;
  static Kind kind(const Redex& r) { return r.node.kind; }
  static const Node& node(const Redex& r) { return r.node; }
};

using Rules = RuleBook<Reduction, Macro>;
using RulesPtr = std::shared_ptr<const Rules>;
using RulesPatch = Rules::Patch;

// What rules fire in: the book, the step budget and the firings by position (rule coverage).
class Machine {
public:
  explicit Machine(const Rules& book, long fuel = 100'000)
      : book_(book), fuel_(fuel), fired_(book.size(), 0),
        before_operands_(any_before_operands(book)) {}

  const Rules& book() const { return book_; }
  template <class R> const Rule<R>* select(const typename R::Redex& redex) const {
    return book_.select<R>(*this, redex);
  }
  // Takes one step (a Reduction entry) or records a clause of D (no step): counted.
  template <class R> Term fire(const Rule<R>& rule, const typename R::Redex& redex);

  // Whether some rule is tried before a node's operands are stepped (a user's added rule).
  bool has_rules_before_operands() const { return before_operands_; }
  long steps() const { return steps_; }
  // The Reduction entry of the last step (traces); null before the first.
  const RuleInfo* last_step() const { return last_step_; }
  void add_firings(RuleCounter& counter) const;

private:
  const Rules& book_;
  long fuel_;
  long steps_ = 0;
  const RuleInfo* last_step_ = nullptr;
  std::vector<long> fired_;
  bool before_operands_;

  static bool any_before_operands(const Rules& book) {
    for (const auto& entry : book.entries())
      if (const auto* r = std::get_if<Rule<Reduction>>(&entry); r && r->extra.before_operands)
        return true;
    return false;
  }
};

} // namespace adsem::dual_numbers
