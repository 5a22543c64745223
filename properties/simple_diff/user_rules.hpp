#pragma once
// A user's rule file joined to simple-diff's semantics (`--rules FILE`, docs/rules/simple-diff.md
// "Joining the semantics"). Each rule is compiled by check-rule's pattern compiler
// (rule_pattern.hpp) into an entry of kind `user` of the rule book (semantics/simple_diff/
// rules.cpp), and the file into a patch of the book:
//   name: LHS --> RHS        the evaluation rule "LHS ⇒ V if RHS ⇒ V" (and "LHS ⇝ C if RHS ⇝ C"),
//                            an entry of the relation Rewrite (relations.hpp): tried on entry to ⇒
//                            and ⇝ at every term they visit, before the paper's rule;
//   replace O-x / S-x / L-x  the paper's evaluation rule NAME becomes the user's: an entry of
//                            Rewrite under NAME, tried in ⇒ (O-, L-call, L-letrec) or ⇝ (S-,
//                            L-scall, L-sletrec) only, and the paper's rule is gone;
//   replace R-x: W.rd[V](x:T. LHS) --> RHS
//                            the Fig. 6 clause NAME becomes the user's; on the right,
//                            `W'.rd[V'](y:S. M)` with M a metavariable is the differentiation
//                            W'.R_V'(y:S. σ(M)) itself (not an rd term). R-fast is removed, so that
//                            differentiation goes clause by clause;
//   remove NAME              the entry NAME is removed.
#include <memory>
#include <string>
#include <vector>

#include "properties/core/patched_books.hpp"
#include "properties/core/rule_check.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/simple_diff/rule_pattern.hpp"
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff {

class CompiledRules final : public props::CompiledRuleFile {
public:
  CompiledRules(RulesPatch patch, std::vector<std::string> fired,
                std::vector<std::shared_ptr<const Pattern>> targets);
  std::vector<std::string> fired_rule_names() const override { return fired_; }
  // The patch applied to `base` (the paper's book, or a mutant's), built once per base; an edit
  // of an entry the mutant removed is skipped.
  RulesPtr book(const RulesPtr& base) const { return books_.over(base); }
  // The rules whose left-hand sides are terms a program can contain (the targeted generator
  // instantiates them).
  const std::vector<std::shared_ptr<const Pattern>>& targets() const { return targets_; }
  const RulesPatch& patch() const { return books_.patch(); }

private:
  props::PatchedBooks<Rules> books_;
  std::vector<std::string> fired_;
  std::vector<std::shared_ptr<const Pattern>> targets_;
};

// Compiles a rule file (RuleAdapter::compile_file). Throws AdsemError located in the file.
std::shared_ptr<const CompiledRules> compile_rule_file(const adsem::rules::RuleFile& file);

// Options running the mutant's book ("" = the paper's) with the user's rules (null = none).
Options with_rules(Options options, const std::string& mutant, const props::UserRules* user);

} // namespace adsem::simple_diff
