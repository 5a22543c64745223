#pragma once
// The patterns of a simple-diff user rule (rule_adapter.hpp): parsing with metavariables as
// typed free variables, their scopes, instantiation and the zero mutants of a right-hand side.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "properties/core/rule_check.hpp"
#include "syntax/simple_diff/ast.hpp"
#include "syntax/simple_diff/contexts.hpp"

namespace adsem::simple_diff {

using VarScope = std::vector<std::pair<std::string, Type>>;

// The term view of the pattern walk (properties/core/term_view.hpp).
struct TermView {
  using Term = simple_diff::Term;
  struct Scope {
    VarScope visible;
    bool outer = true; // false inside a letrec body (which sees its parameter only)
  };
  static std::array<Term, 3> children(const Term& m) { return {m->a, m->b, m->c}; }
  static bool is_var(const Term& m) { return m->kind == Kind::var; }
  static const std::string& var_name(const Term& m) { return m->name; }
  static const VarScope& visible(const Scope& s) { return s.visible; }
  static std::optional<SourcePos> pos(const Term& m) { return m->pos; }
  static bool bound(const Scope& s, const std::string& x);
  static std::optional<Scope> enter(const Term& m, std::size_t i, const Scope& s);
  static void binders(const Term& m, std::vector<std::string>& out);
  static Term rebuild(const Term& m, std::vector<Term> kids);
  static Term instantiated(const Term& m, std::vector<Term> kids,
                           const std::map<std::string, Term>& sigma);
  static Term renamed(const Term& var, const std::string& to);
  static bool same(const Term& a, const Term& b) { return alpha_equal(a, b); }
  static std::string print(const Term& m);
};

struct Metavariable {
  std::string name;
  Type type;
  VarScope binders;  // bound around every occurrence on the left, less the `x # M` exclusions
  bool outer = true; // the variables around the instance are visible (not inside a letrec body)
};

struct Pattern final : adsem::rules::CompiledRule {
  std::string name;
  Term lhs, rhs;                   // as parsed; metavariables are free variables
  Type type;                       // of both sides
  std::vector<Metavariable> metas; // those on the left, in declaration order
  VarScope gamma;                  // metavariable : type, for type-checking the schema
  std::vector<std::string> names;  // every identifier of the rule (fresh names avoid them)
};

Pattern compile_pattern(const adsem::rules::RuleDecl& rule);

// σ(M): every free occurrence of a metavariable replaced by its term (no renaming: the terms are
// built over the binders they may mention); derived-form records are kept consistent.
Term instantiate(const Term& m, const std::map<std::string, Term>& sigma);

// An occurrence of variable `name` in a term, with the variables in scope there.
struct Occurrence {
  Path path;
  VarScope visible;
  bool outer = true; // false inside a letrec body (which sees its parameter only)
};
std::vector<Occurrence> occurrences(const Term& m, const std::string& name, VarScope visible);

// m with the subterm at `path` replaced by n; derived-form records on the way are dropped.
Term replace_at(const Term& m, const Path& path, const Term& n);

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p);

} // namespace adsem::simple_diff
