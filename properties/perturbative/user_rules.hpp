#pragma once
// A user's rule file joined to perturbative's semantics (`--rules FILE`; docs/rules/perturbative.md
// "Joining the semantics"). Each statement becomes an edit of the rule book
// (semantics/perturbative/rules.cpp):
//  - `name: LHS --> RHS` an entry of kind `user` of the relation Reduction, after the paper's
//    entries: both strategies (strategy.hpp) try it at every position they visit (an
//    application, a T or a π_k, Fig. 3), after the paper's rules there;
//  - `replace NAME: LHS --> RHS` the paper's entry NAME by the user's, in its place and under its
//    name. A pattern has one type per metavariable while the paper's rules are schemas over every
//    type: the paper's entry stays, right after, as "NAME (paper)", for the instances the
//    user's left-hand side does not match (which one fired shows in traces and coverage). A
//    clause of T_x (Fig. 4) takes `replace` only; its right-hand side has type T τ and calls T_x
//    on a metavariable M as `Tx(M)`; the clause keeps the paper's side condition (Tx-x: the
//    variable is x; Tx-y: it is not);
//  - `remove NAME` removes the paper's entry NAME (a rule of Fig. 3 or spec §4.5).
// The patched book is built once per (file, mutant) and cached here.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "properties/core/patched_books.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/perturbative/mutants.hpp"
#include "properties/perturbative/rule_pattern.hpp"

namespace adsem::perturbative {

class UserRuleFile final : public props::CompiledRuleFile {
public:
  // Throws AdsemError located in the file (parse, type).
  explicit UserRuleFile(const adsem::rules::RuleFile& file);

  std::vector<std::string> fired_rule_names() const override { return fired_; }
  // The patterns of the added and replacing rules (the targeted generator's instances).
  const std::vector<Pattern>& patterns() const { return patterns_; }
  // The semantics of `mutant` ("" = the paper's) with this file's patch applied after the
  // mutant's; built on first use.
  const Semantics& semantics(const std::string& mutant) const;

private:
  std::vector<Pattern> patterns_;
  std::vector<std::string> fired_;
  props::PatchedBooks<Rules> books_; // after the two above, which compiling the file fills
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::unique_ptr<const Semantics>> cache_;
};

// What a run uses under `mutant` and, when not null, a user's rule file compiled for
// perturbative.
const Semantics& semantics_for(const std::string& mutant, const props::UserRules* user_rules);
const Semantics& semantics_for(const props::PropertyContext& context);

} // namespace adsem::perturbative
