#pragma once
// The patterns of a delta-reverse user rule (rule_adapter.hpp; docs/rules/delta-reverse.md):
// the two sides parsed in the surface syntax of spec §2.2 with the declared metavariables as
// typed free variables, elaborated (e.i to fst/snd, tuple patterns to let-chains), the variables
// each metavariable may mention, instantiation, and the zero mutants of a right-hand side.
//
// A rule has one of two sorts, fixed by its type:
//  - source: both sides are source terms (Fig. 1) of any source type; metavariables have
//    source types. Checked against App. A.2's model, the machine and R{e}.
//  - delta: both sides have type Delta (the linear layer, L489-495), built from Zero, Scale,
//    Add and Delta metavariables, with Real coefficients (source terms); metavariables have type
//    Delta or Real. Checked against the dense meaning of Fig. 13, eval of Fig. 10 and the tape
//    of R{e}.
// Rules over the monadic layer (M A, pure, do, deltaLet), Delta2, δS or fixed DeltaIds are
// rejected with a located message: the model has no meaning for them (docs, "Limits").
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "properties/core/rule_check.hpp"
#include "syntax/delta_reverse/typecheck.hpp"

namespace adsem::delta_reverse {

using Path = std::vector<std::size_t>;

// The term view of the pattern walk (properties/core/term_view.hpp). The types of let, case and
// do binders come from the checker when `globals` is set (then the walk types the bound terms).
struct TermView {
  using Term = delta_reverse::Term;
  using Scope = Context;
  const Context* globals = nullptr;
  static const std::vector<Term>& children(const Term& t) { return t->kids; }
  static bool is_var(const Term& t) { return t->kind == Kind::var; }
  static const std::string& var_name(const Term& t) { return t->name; }
  static const Context& visible(const Scope& s) { return s; }
  static std::optional<SourcePos> pos(const Term& t) { return t->pos; }
  static bool bound(const Scope& s, const std::string& x);
  std::optional<Scope> enter(const Term& t, std::size_t i, const Scope& s) const;
  static void binders(const Term& t, std::vector<std::string>& out);
  static Term rebuild(const Term& t, std::vector<Term> kids);
  static bool same(const Term& a, const Term& b) { return same_term(a, b); }
  static std::string print(const Term& t);
};

struct Metavariable {
  std::string name;
  Type type;
  Context binders; // bound around every occurrence on the left, less the `x # M` exclusions
};

enum class RuleSort { source, delta };

struct Pattern final : adsem::rules::CompiledRule {
  std::string name;
  RuleSort sort = RuleSort::source;
  Term lhs, rhs;                   // elaborated; metavariables are free variables
  Type type;                       // of both sides
  std::vector<Metavariable> metas; // those on the left, in declaration order
  Context gamma;                   // metavariable : type, for typing the schema
};

// Throws AdsemError located in the rule file (parse: syntax, names; type: ill-typed schemas and
// unsupported layers).
Pattern compile_pattern(const adsem::rules::RuleDecl& rule);

// σ(t): every free occurrence of a metavariable replaced by its term (no renaming: instances are
// built over the binders they may mention).
Term instantiate(const Term& t, const std::map<std::string, Term>& sigma);

// A free occurrence of a variable, with the binders in scope there (innermost last).
struct Occurrence {
  Path path;
  Context visible;
};
// The free occurrences of `name` in t; `globals` types the free variables of t (for the types of
// let- and case-bound variables).
std::vector<Occurrence> occurrences(const Term& t, const std::string& name, const Context& globals);

Term replace_at(const Term& t, const Path& path, const Term& with);

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p);

} // namespace adsem::delta_reverse
