#pragma once
// The patterns of a dual-numbers user rule (docs/kit.md, "Rules"): the two sides parsed in the
// calculus's own syntax with the declared metavariables as free variables of their types, their
// scopes, instantiation, and the zero mutants of a right-hand side. The pattern walk is
// properties/core/term_view.hpp's over the term view below.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/rule_check.hpp"
#include "syntax/dual_numbers/term.hpp"

namespace adsem::dual_numbers {

using Path = std::vector<int>; // child indices: 0 the node's `a`, 1 its `b`

// The term view of the pattern walk: a scope is the λ-binders around a subterm, with their types.
struct TermView {
  using Term = dual_numbers::Term;
  using Scope = TypeContext;
  static std::array<Term, 2> children(const Term& t) { return {t->a, t->b}; }
  static bool is_var(const Term& t) { return t->kind == Kind::var; }
  static const std::string& var_name(const Term& t) { return t->name; }
  static const Scope& visible(const Scope& s) { return s; }
  static bool bound(const Scope& s, const std::string& x);
  static std::optional<Scope> enter(const Term& t, std::size_t i, const Scope& s);
  static void binders(const Term& t, std::vector<std::string>& out);
  static Term rebuild(const Term& t, const std::vector<Term>& kids) {
    return with_children(*t, kids[0], kids[1]);
  }
  static std::optional<SourcePos> pos(const Term& t) { return t->pos; }
  static bool same(const Term& a, const Term& b) { return same_term(a, b); }
  static std::string print(const Term& t) { return dual_numbers::print(t); }
};

// A metavariable stands for a term of its type whose free variables are those around the
// instance and the λ-binders of the left around every occurrence of it, less `x # M`.
struct Metavariable {
  std::string name;
  Type type;
  TypeContext binders;
};

struct Pattern final : adsem::rules::CompiledRule {
  std::string name;
  Term lhs, rhs;                   // metavariables are free variables
  Type type;                       // of both sides
  std::vector<Metavariable> metas; // those on the left, in declaration order
  TypeContext gamma;               // metavariable : type
  std::string variable;            // the context's free variable: a name the rule does not use
};

// Parses and checks a rule; located AdsemErrors (rule_compile.hpp's messages).
Pattern compile_pattern(const adsem::rules::RuleDecl& rule);

Term instantiate(const Term& t, const std::map<std::string, Term>& sigma);

// The free occurrences of `name` in t (under `outer`), with the variables in scope there.
struct Occurrence {
  Path path;
  TypeContext visible;
};
std::vector<Occurrence> occurrences(const Term& t, const std::string& name,
                                    const TypeContext& outer);
Term replace_at(const Term& t, const Path& path, const Term& with);
// A closed term of type τ denoting zero: 0, <0, 0>, \y:S. 0.
Term zero_of(const Type& tau);

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p);

} // namespace adsem::dual_numbers
