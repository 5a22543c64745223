#pragma once
// A user's rule file joined to dual-numbers' semantics (`--rules FILE`, docs/kit.md "Rules"):
//  - `name: LHS --> RHS` adds an entry of kind user to `Reduction`, after the paper's rules: the
//    call-by-value strategy tries it at every node it visits that is not a value, after the
//    paper's rules where the operands are values and before stepping inside where they are not;
//  - `replace NAME: ...` replaces the paper's reduction rule NAME (beta-v, pi-pair, delta-...)
//    where the new left-hand side matches (elsewhere that construct is stuck);
//  - `remove NAME` removes it.
// The clauses of D (relation Macro) are not rewriting rules of the reduction: a file can neither
// replace nor remove them (a located error).
#include <memory>
#include <string>
#include <vector>

#include "properties/core/patched_books.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/dual_numbers/rule_pattern.hpp"
#include "semantics/dual_numbers/relations.hpp"

namespace adsem::dual_numbers {

class CompiledRules final : public props::CompiledRuleFile {
public:
  CompiledRules(RulesPatch patch, std::vector<std::string> names,
                std::vector<std::shared_ptr<const Pattern>> patterns)
      : books_(std::move(patch)), names_(std::move(names)), patterns_(std::move(patterns)) {}

  std::vector<std::string> fired_rule_names() const override { return names_; }
  // The file's added and replacing rules (the targeted generator's instances).
  const std::vector<std::shared_ptr<const Pattern>>& patterns() const { return patterns_; }
  // `base` (the paper's book, or a mutant's) with this file's edits, built once per base.
  const Rules& patched(const Rules& base) const { return books_.over(base); }

private:
  props::PatchedBooks<Rules> books_;
  std::vector<std::string> names_;
  std::vector<std::shared_ptr<const Pattern>> patterns_;
};

// Compiles every statement (located errors, as check-rule's compile).
std::shared_ptr<const CompiledRules> compile_rule_file(const adsem::rules::RuleFile& file);

// The book a run uses: the mutant's (mutants.hpp, rules_for), then the user rules' edits.
const Rules& book_for(const std::string& mutant, const props::UserRules* user_rules);

} // namespace adsem::dual_numbers
