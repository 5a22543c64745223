#pragma once
// A user's rule file joined to pullback's semantics (`--rules FILE`; docs/rules/pullback.md,
// "Joining the semantics"). Each statement becomes an edit of the rule book
// (semantics/pullback/rules.cpp) whose entries are compiled patterns (rule_pattern.hpp) matched by
// rule_match.hpp:
//   name: LHS --> RHS   an entry of kind `user` added after the paper's entries of the relation of
//                       LHS's shape: `Pullback` when LHS is a row ((Omega \y:T. B) @ W) V (tried
//                       after rows 9-20, also where a row's premise FAILs), `Combine` otherwise
//                       (tried after rules 1-6, 5+, N, Z, Sigma and let at the node, and never at a
//                       row, whose rows come first). A pullback (Ω λy.P)·S is refused: its steps
//                       are A* (a transformation) and 7, 8, and a final one is a value.
//   replace NAME: ...   the entry NAME, at its place and under its name, of kind `user`; the
//                       relation's premise stays (A* only where the body is not final, 7 and 8
//                       only where it is). The right-hand side may call A-normalisation: ANF(P).
//   remove NAME         the entry NAME removed.
// The book a run uses is the mutant's with this patch applied, built once per mutant.
#include <memory>
#include <string>
#include <vector>

#include "properties/core/patched_books.hpp"
#include "properties/core/property.hpp"
#include "properties/core/user_rules.hpp"
#include "semantics/pullback/rules.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

struct Pattern; // rule_pattern.hpp

class CompiledRules final : public props::CompiledRuleFile {
public:
  CompiledRules(BookPatch patch, std::vector<std::string> fired,
                std::vector<std::shared_ptr<const Pattern>> targets)
      : books_(std::move(patch)), fired_(std::move(fired)), targets_(std::move(targets)) {}

  std::vector<std::string> fired_rule_names() const override { return fired_; }
  const BookPatch& patch() const { return books_.patch(); }
  // The rules whose left-hand sides the targeted generator instantiates (those check-rule can
  // place and generate: rule_instance.hpp).
  const std::vector<std::shared_ptr<const Pattern>>& targets() const { return targets_; }
  // `base` (the paper's book or a mutant's) with this file's edits; an edit of an entry the
  // mutant removed is skipped. Built once per base.
  BookPtr book_for(const BookPtr& base) const { return books_.over(base); }

private:
  props::PatchedBooks<Book> books_;
  std::vector<std::string> fired_;
  std::vector<std::shared_ptr<const Pattern>> targets_;
};

// Compiles a rule file (located errors as check-rule's compile, plus: an unknown NAME, an added
// rule at a pullback or a value, `priority`).
std::shared_ptr<const CompiledRules> compile_user_rules(const adsem::rules::RuleFile& file);

// The rules a run uses: the mutant's book, then the user's rules.
Rules rules_for(const std::string& mutant, const std::shared_ptr<const props::UserRules>& user);
Rules rules_for(const props::PropertyContext& context);

// Inside a property body: with `--rules`, in the targeted share of trials (props::draw_targeted),
// a closed program C[σ(LHS)][V/a0] for one of the file's rules, or (coin flip, at a Euclidean
// type) its gradient query ((Ω λa0.C[σ(LHS)])·Ω c) V; nullopt otherwise (and then it draws
// nothing).
std::optional<Term> targeted_term(const props::PropertyContext& context);

} // namespace adsem::pullback
