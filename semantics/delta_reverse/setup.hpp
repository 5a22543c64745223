#pragma once
// What the translations, the wrappers and the interpretation of Deltas run with: a rule book (the
// paper's, or a patched one) and where the firings of its entries are counted.
#include <memory>
#include <string>
#include <string_view>

#include "semantics/core/rule_counter.hpp"
#include "semantics/delta_reverse/rules.hpp"
#include "syntax/core/diagnostic.hpp"

namespace adsem::delta_reverse {

struct RunSetup {
  RulesPtr rules = paper_rules();
  // The campaign's rule coverage (shared by every ledger of one trial); null outside campaigns.
  std::shared_ptr<RuleCounter> coverage = nullptr;
};

// Counts one firing of an entry that is not itself a step of the cost model (a translation
// clause, a rule that counts its own steps) in the rule coverage.
inline void note(RuleCounter* coverage, const RuleInfo& rule) {
  if (coverage) coverage->add(rule.name);
}

// Fires the entry of R that matches the redex, an entry that is no step of the cost model itself
// (it counts its own steps, if any): noted in the coverage, its result returned. AdsemError(eval)
// naming `what` when no entry of the book matches.
template <class R>
typename R::Output fire_entry(const Rules& rules, typename R::Context& context,
                              const typename R::Redex& redex, RuleCounter* coverage,
                              std::string_view what) {
  const adsem::Rule<R>* rule = rules.select<R>(context, redex);
  if (rule == nullptr)
    throw AdsemError(ErrorKind::eval, std::string(what) + ": no rule of the book applies");
  note(coverage, rule->info);
  return rule->result(context, redex, rule->info);
}

// Takes the step an entry of a relation whose Extra is std::optional<Step> is, or notes an entry
// that counts its own steps.
template <class R> void take(Ledger& ledger, const adsem::Rule<R>& rule) {
  if (rule.extra)
    ledger.fire(*rule.extra);
  else
    note(ledger.coverage.get(), rule.info);
}

// Fires the entry of R (Extra std::optional<Step>) that matches the redex: its step taken, its
// result returned. AdsemError(eval, what) when no entry of the book matches.
template <class R>
typename R::Output fire_step(const Rules& rules, typename R::Context& context,
                             const typename R::Redex& redex, Ledger& ledger,
                             std::string_view what) {
  const adsem::Rule<R>* rule = rules.select<R>(context, redex);
  if (rule == nullptr) throw AdsemError(ErrorKind::eval, std::string(what));
  take(ledger, *rule);
  return rule->result(context, redex, rule->info);
}

} // namespace adsem::delta_reverse
