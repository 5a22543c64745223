#pragma once
// `replace T[c]: LHS --> RHS` in a rule file (`--rules`; docs/rules/delta-reverse.md, "Joining
// the semantics"): a clause of a translation of seed 001 (Dfwd, Fig. 3; Drev1, Fig. 5; Drev2,
// Fig. 7; Drev, Fig. 9) stated by the user. LHS is a source term of the clause's construct (or a
// lone metavariable: every such node); RHS is a target term in which `T(M)`, M a metavariable of
// the left, is the translation of M's subterm and a bare M the subterm itself. The right-hand side
// is type-checked when the file is compiled: T(M) : T{A} for M : A (M T{A} for Drev), the whole of
// type T{B} for a left of type B (M T{B} for Drev).
//
// The compiled entry takes the clause's place and name (kind `user`) in the same relation, so the
// walk of translate.cpp selects and fires it like the paper's; its binders the left does not bind
// get the walk's fresh names. Where its left-hand side does not match (a pattern is monomorphic,
// the paper's clauses are schemas) the base book's clause, kept after it as "T[c] (paper)",
// fires.
#include <cstddef>

#include "semantics/delta_reverse/rules.hpp"
#include "syntax/core/rule_file.hpp"

namespace adsem::delta_reverse {

// Is the entry a clause of Dfwd, Drev1, Drev2 or Drev?
bool is_clause(const Rules::Entry& entry);

// The edit replacing `paper` (a clause) by the rule `decl`, its entry described by `info`.
// Throws a located AdsemError (parse, type) when the rule is not a clause of that translation.
RulesPatch::Edit clause_replacement(const adsem::rules::RuleDecl& decl, const Rules::Entry& paper,
                                    RuleInfo info);

// The edit that keeps base's clause at `at` after every entry, as "NAME (paper)".
RulesPatch::Edit kept_clause(const Rules& base, std::size_t at);

} // namespace adsem::delta_reverse
