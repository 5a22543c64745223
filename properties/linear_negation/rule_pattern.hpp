#pragma once
// The patterns of a linear-negation user rule (rule_adapter.hpp): the two sides parsed in target
// mode with the declared metavariables as free exponential variables, their scopes,
// instantiation, and the zero mutants of a right-hand side.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "generators/linear_negation/terms.hpp"
#include "properties/core/rule_check.hpp"
#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/typecheck.hpp"

namespace adsem::linear_negation {

using gen::VarScope;
using Path = std::vector<int>; // child indices (Node::kids)

// The term view of the pattern walk (properties/core/term_view.hpp): `visible` holds the
// exponential variables in scope, `bound` every bound name (linear binders too: seed 002 Table 1,
// a linear variable z is only usable inside Γ ⊢_z, never by an exponential term).
struct TermView {
  using Term = linear_negation::Term;
  struct Scope {
    VarScope visible;
    std::vector<std::string> bound;
  };
  static const std::vector<Term>& children(const Term& t) { return t->kids; }
  static bool is_var(const Term& t) { return t->kind == Kind::var; }
  static const std::string& var_name(const Term& t) { return t->name; }
  static const VarScope& visible(const Scope& s) { return s.visible; }
  static std::optional<SourcePos> pos(const Term& t) { return t->pos; }
  static bool bound(const Scope& s, const std::string& x);
  static std::optional<Scope> enter(const Term& t, std::size_t i, const Scope& s);
  static bool same(const Term& a, const Term& b) { return alpha_key(a) == alpha_key(b); }
  static std::string print(const Term& t);
  static Term rebuild(const Term& t, std::vector<Term> kids) {
    return linear_negation::rebuild(*t, std::move(kids));
  }
};

// A metavariable stands for an exponential term Γ ⊢ M : T (Table 1's ordinary judgment): it may
// sit wherever an exponential term of its type may, never where the term must be linear in some
// z (there a term of Γ ⊢_z is needed; linear metavariables are not part of the rule language).
struct Metavariable {
  std::string name;
  Type type;
  VarScope binders; // exponential binders of the left around every occurrence, less `x # M`
};

struct Pattern final : adsem::rules::CompiledRule {
  std::string name;
  Term lhs, rhs; // elaborated (ES binder types filled in); metavariables are free variables
  Type type;     // of both sides
  std::vector<Metavariable> metas; // those on the left, in declaration order
  Context gamma;                   // metavariable : type
  // Both sides are terms of the source language Λ(F) (no R^⊥d, no linear binder, sums at R):
  // only then is the transformation D of Table 3 defined on a program holding an instance.
  bool source = false;
};

Pattern compile_pattern(const adsem::rules::RuleDecl& rule);

// σ(t): every free occurrence of a metavariable replaced by its term (no renaming: the terms are
// built over the binders they may mention, which the rule's binders then capture on purpose).
Term instantiate(const Term& t, const std::map<std::string, Term>& sigma);

// The free occurrences of `name` in t, with the exponential variables in scope there.
struct Occurrence {
  Path path;
  VarScope visible;
};
std::vector<Occurrence> occurrences(const Term& t, const std::string& name, VarScope visible);

Term replace_at(const Term& t, const Path& path, const Term& n);
// A closed term of type a denoting zero: 0, (0, 0), \y:!A. 0_B, \z:R. 0 (linear).
Term zero_of(const Type& a);

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p);

} // namespace adsem::linear_negation
