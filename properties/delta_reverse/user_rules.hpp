#pragma once
// A user's rule file joined to delta-reverse's semantics (`--rules FILE`; docs/rules/
// delta-reverse.md, "Joining the semantics"). compile_file turns each statement into an edit of
// the rule book (semantics/delta_reverse/rules.hpp):
//   name: LHS --> RHS      an entry of SourceRewrite: "LHS ⇓ V if RHS ⇓ V", tried by the machine
//                          on every term it evaluates (source terms, and the Delta constructor
//                          terms of the target) before the paper's rule for the construct;
//   replace NAME: L --> R  NAME a rule of source evaluation (SourceEval: E-*, E-Comp, E-Delta):
//                          its entry, same name, step and place, now matching L and evaluating
//                          σ(R) in the same environment; or NAME a clause of a translation
//                          (Dfwd[c], Drev1[c], Drev2[c], Drev[c]; user_clauses.hpp), R calling
//                          the translation on a metavariable as Drev(M);
//   remove NAME            any entry of the book removed.
// Refused with a located error: `priority` (linear-negation's), an unknown NAME (the nearest
// names listed), or replacing a rule of the interpretation of Delta values (eval-*, sweep-*,
// runDelta, lookup, the monad: their redexes are run-time values, which the rule language's
// terms do not describe).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "properties/core/patched_books.hpp"
#include "properties/core/user_rules.hpp"
#include "properties/delta_reverse/rule_pattern.hpp"
#include "semantics/delta_reverse/rules.hpp"

namespace adsem::delta_reverse {

// σ and the binder renaming of a successful match of a left-hand side against a term.
struct PatternMatch {
  std::map<std::string, Term> sigma;          // metavariable -> subterm
  std::map<std::string, std::string> binders; // the pattern's binder -> the term's
};

// First-order matching up to alpha-renaming of binders: a metavariable binds a subterm (the same
// metavariable twice: alpha-equivalent subterms), every other node must agree (λ's binder type
// and inl/inr's summand type included), and each `x # M` holds of the match. The machine's terms
// carry no types, so a metavariable's declared type is not checked at run time: the file's
// schemas are type-checked when it is compiled.
bool match_pattern(const Pattern& p, const std::vector<std::pair<std::string, std::string>>& apart,
                   const Term& term, PatternMatch& out);

// σ(RHS) with the right-hand side's binders renamed as the match renamed the left's.
Term instantiate_match(const Pattern& p, const PatternMatch& m);

// Adds to m a fresh name (fresh(binder)) for each binder of the right-hand side that the left
// does not bind, in the order they occur: the subterms put under them cannot be captured.
void rename_apart(const Pattern& p, PatternMatch& m,
                  const std::function<std::string(const std::string&)>& fresh);

class CompiledRules final : public props::CompiledRuleFile {
public:
  // The replaced translation clauses `kept`: each base book's entry stays after the user's,
  // renamed "NAME (paper)", for the nodes the user's left-hand side does not match.
  CompiledRules(RulesPatch patch, std::vector<std::string> names,
                std::vector<std::shared_ptr<const Pattern>> targets, std::vector<std::string> kept);

  // of the added and replacing rules
  std::vector<std::string> fired_rule_names() const override { return names_; }
  // the source rules' left-hand sides (added and replacing; Delta rules aside): the targeted
  // trials draw instances of them (support::draw)
  const std::vector<std::shared_ptr<const Pattern>>& targets() const { return targets_; }
  // `base` (the paper's book or a mutant's) with this file's patch applied; built once per base.
  RulesPtr book_over(const RulesPtr& base) const { return books_.over(base); }

private:
  props::PatchedBooks<Rules> books_;
  std::vector<std::string> names_;
  std::vector<std::shared_ptr<const Pattern>> targets_;
};

std::shared_ptr<const CompiledRules> compile_rules(const adsem::rules::RuleFile& file);

// The book a run takes: `base` with the user rules' patch, if any.
RulesPtr with_user_rules(const RulesPtr& base, const props::UserRules* user_rules);

} // namespace adsem::delta_reverse
