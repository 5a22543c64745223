#pragma once
// A user's rule file joined to linear-negation's semantics (`--rules FILE`,
// docs/rules/linear-negation.md "Joining the semantics (--rules)"):
//  - `name: LHS --> RHS [priority K]` adds an entry of kind user to `Reduction`, after the paper's
//    rules (7)-(23): S_bp tries it at every node it visits, in the priority class K (1-7; without
//    `priority`: last, after every class of the paper); S_lo and S_rand offer it like any rule;
//  - `replace NAME: ...` replaces the paper entry NAME (beta-7 … prim-23, keeping its S_bp class
//    unless `priority` says otherwise, or a clause of Table 3b's D, D-var … D-prim, whose
//    right-hand side calls D on a metavariable as `D(M)`);
//  - `remove NAME` removes a rule of Table 2 (D's clauses can only be replaced).
// The patched book is built once per mutant and cached here.
#include <memory>
#include <string>
#include <vector>

#include "properties/core/patched_books.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/linear_negation/rule_pattern.hpp"
#include "semantics/linear_negation/relations.hpp"

namespace adsem::linear_negation {

class CompiledRules final : public props::CompiledRuleFile {
public:
  CompiledRules(RulesPatch patch, std::vector<std::string> names,
                std::vector<std::shared_ptr<const Pattern>> reductions)
      : books_(std::move(patch)), names_(std::move(names)), reductions_(std::move(reductions)) {}

  std::vector<std::string> fired_rule_names() const override { return names_; }
  // The rules of Table 2 this file adds or replaces (the targeted generator's instances).
  const std::vector<std::shared_ptr<const Pattern>>& reductions() const { return reductions_; }
  // `base` (the paper's book, or a mutant's) with this file's edits; built once per base. An edit
  // of an entry the mutant already removed is skipped.
  RulesPtr patched(const RulesPtr& base) const { return books_.over(base); }

private:
  props::PatchedBooks<Rules> books_;
  std::vector<std::string> names_;
  std::vector<std::shared_ptr<const Pattern>> reductions_;
};

// Compiles every statement (located errors, as check-rule's compile).
std::shared_ptr<const CompiledRules> compile_rule_file(const adsem::rules::RuleFile& file);

// The book a run uses: the mutant's (mutants.hpp, rules_for), then the user rules' edits.
RulesPtr book_for(const std::string& mutant, const props::UserRules* user_rules);

} // namespace adsem::linear_negation
