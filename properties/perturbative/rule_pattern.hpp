#pragma once
// The patterns of a perturbative user rule (rule_adapter.hpp; docs/rules/perturbative.md):
// parsing with metavariables as typed free variables, their scopes, instantiation (a plain
// replacement that captures ON PURPOSE: an instance may mention the binders of the left-hand side
// around it, and the context's binders around the hole), and the zero mutants of a right-hand side.
//
// What is special in this calculus (seed 004 §4, L134-191):
//  - terms are bags: the parser already applies the linearity sugar of L165-185 (λ, T, ι_k, π_k
//    and the operator position distribute over sums), so a pattern is a sugar-normal Bag, and an
//    instance is rebuilt through the smart constructors (a sum put in operator position
//    distributes, a 0 there makes the enclosing simple term 0), exactly as the paper's contextual
//    closure re-inserts a reduct "using the sugar" (spec §4.1);
//  - instantiation is NOT the calculus's substitution (Fig. 2, capture-avoiding, which would
//    rename the pattern's binders away from the instance): it is replacement of the metavariable
//    by a term built over the binders it may see.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "properties/core/rule_check.hpp"
#include "syntax/perturbative/parser.hpp"

namespace adsem::perturbative {

struct Metavariable {
  std::string name;
  Type type;
  Context binders; // bound by the pattern around every occurrence on the left, less `x # M`
};

struct Pattern final : adsem::rules::CompiledRule {
  std::string name;
  Term lhs, rhs;                   // sugar-normal; metavariables are free variables
  Type type;                       // of both sides
  std::vector<Metavariable> metas; // those on the left, in declaration order
  Context gamma;                   // metavariable : type (for re-checking and mutants)
  std::vector<std::string> names;  // every identifier of the rule (fresh names avoid them)
};

// What a rule compiled into the semantics (user_rules.hpp) may do that check-rule's may not.
struct PatternOptions {
  // A lone metavariable on the left (a clause of T_x for a variable: which variable the paper's
  // side condition decides).
  bool lone_metavariable = false;
  // More metavariables the right-hand side may use (T_x of a left one, `Tx(M)`).
  Context right_only = {};
  // The right-hand side has type T τ for a left-hand side of type τ (a clause of T_x).
  bool right_is_tangent = false;
};

// Throws AdsemError located in the rule file (rule_check.hpp RuleAdapter::compile).
Pattern compile_pattern(const adsem::rules::RuleDecl& rule, const PatternOptions& options = {});

// The names the λs of m bind, in traversal order (repeats kept).
void binders_of(const Term& m, std::vector<std::string>& out);

// σ(M): every occurrence of a metavariable replaced by its term, rebuilt through the sugar. No
// renaming: the terms are built over the binders they may mention (capture on purpose).
Term instantiate(const Term& m, const std::map<std::string, Term>& sigma);

// The free occurrences of variable `name` in m, in a fixed traversal order, each with the
// variables in scope there (rightmost binding wins, as in Fig. 1 Var).
std::vector<Context> occurrences(const Term& m, const std::string& name, const Context& scope);

// m with the k-th free occurrence of `name` (in the order of `occurrences`) replaced by `with`
// and every other free occurrence by 0; no renaming (the plug captures on purpose).
Term plug(const Term& m, const std::string& name, std::size_t k, const Term& with);

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p);

} // namespace adsem::perturbative
