#include "semantics/dual_numbers/machine.hpp"

#include "syntax/core/diagnostic.hpp"

namespace adsem::dual_numbers {

template <class R> Term Machine::fire(const Rule<R>& rule, const typename R::Redex& redex) {
  ++fired_[rule.info.position];
  if constexpr (std::is_same_v<R, Reduction>) {
    if (++steps_ > fuel_)
      throw AdsemError(ErrorKind::fuel, "out of fuel after " + std::to_string(fuel_) + " steps");
    last_step_ = &rule.info;
  }
  return rule.result(*this, redex, rule.info);
}
template Term Machine::fire(const Rule<Reduction>&, const Reduction::Redex&);
template Term Machine::fire(const Rule<Macro>&, const Macro::Redex&);

void Machine::add_firings(RuleCounter& counter) const {
  for (std::size_t i = 0; i < fired_.size(); ++i)
    if (fired_[i] > 0) counter.add(book_.info(i).name, fired_[i]);
}

Term step(Machine& machine, const Term& t) {
  if (is_value(*t)) return nullptr;
  const Reduction::Redex redex{*t};
  // A user's added rule is tried first where an operand is not a value yet (with values, the
  // book's order below puts it after the paper's rules).
  if (machine.has_rules_before_operands() &&
      ((t->a && !is_value(*t->a)) || (t->b && !is_value(*t->b))))
    for (const Rule<Reduction>* rule : machine.book().candidates<Reduction>(t->kind))
      if (rule->extra.before_operands && (!rule->match || rule->match(machine, redex)))
        return machine.fire(*rule, redex);
  // Congruence: the first child that is not a value steps (left to right).
  if (t->a && !is_value(*t->a)) // (a λ is a value: its body is not reduced)
    return with_children(*t, step(machine, t->a), t->b);
  if (t->b && !is_value(*t->b)) return with_children(*t, t->a, step(machine, t->b));
  const Rule<Reduction>* rule = machine.select<Reduction>(redex);
  if (!rule) throw AdsemError(ErrorKind::eval, "stuck at " + print(t));
  return machine.fire(*rule, redex);
}

Term evaluate(Machine& machine, const Term& t) {
  Term at = t;
  while (Term next = step(machine, at))
    at = std::move(next);
  return at;
}

Term macro(Machine& machine, const Term& t) {
  Macro::Redex redex{*t};
  if (t->a) redex.da = macro(machine, t->a);
  if (t->b) redex.db = macro(machine, t->b);
  const Rule<Macro>* clause = machine.select<Macro>(redex);
  if (!clause) throw AdsemError(ErrorKind::eval, "no clause of D for " + print(t));
  return machine.fire(*clause, redex);
}

} // namespace adsem::dual_numbers
