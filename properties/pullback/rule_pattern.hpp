#pragma once
// The patterns of a pullback user rule (rule_adapter.hpp; docs/rules/pullback.md): parsing with the
// metavariables as typed free variables, what each metavariable may mention, the schema's typing
// (with pullback's linearity side condition of the (dual) rule), instantiation by plain
// replacement (capturing on purpose: an instance may mention binders of the rule) and the zero
// mutants of a right-hand side.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "properties/core/rule_check.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

using VarScope = std::vector<std::pair<std::string, Type>>;

// The term view of the pattern walk (properties/core/term_view.hpp); a scope also holds the
// innermost dual map's binder around it.
struct TermView {
  using Term = pullback::Term;
  struct Scope {
    VarScope visible;
    std::optional<std::pair<std::string, Type>> dual;
  };
  static const Kids& children(const Term& t) { return t->kids; }
  static bool is_var(const Term& t) { return t->kind == Kind::var; }
  static const std::string& var_name(const Term& t) { return t->name; }
  static const VarScope& visible(const Scope& s) { return s.visible; }
  // The child a binder node scopes over, or -1.
  static int bound_child(Kind k);
  static bool bound(const Scope& s, const std::string& x);
  static std::optional<Scope> enter(const Term& t, std::size_t i, const Scope& s);
  static void binders(const Term& t, std::vector<std::string>& out) {
    if (bound_child(t->kind) >= 0) out.push_back(t->name);
  }
  static Term rebuild(const Term& t, std::vector<Term> kids);
};

struct Metavariable {
  std::string name;
  Type type;
  // Bound around every occurrence on the left (λ, let, dual-map and pullback binders), less the
  // `x # M` exclusions; the instance may mention them.
  VarScope binders;
  // Set when M sits in the body of a dual map (λx:σ.S)* whose x it may see: the (dual) rule
  // needs x ∈ lin(S) (seed 000 Fig. 2, L180-187), so the instance is a term linear in x built by
  // the calculus's genLin (it mentions x only).
  std::optional<std::pair<std::string, Type>> linear_in;
};

struct Pattern final : adsem::rules::CompiledRule {
  std::string name;
  Term lhs, rhs;                   // as parsed; metavariables are free variables; zeros annotated
  Type type;                       // of both sides
  std::vector<Metavariable> metas; // those on the left, in declaration order
  std::map<std::string, Type> gamma;
};

// With transformation_calls (rule files joined to the semantics, user_rules.hpp), the right-hand
// side may call A-normalisation on a term: `ANF(P)` (seed 000 §3.2), a node the rule's result
// expands (expand_transformation_calls) after instantiation.
inline constexpr std::string_view anf_call = "ANF";
Pattern compile_pattern(const adsem::rules::RuleDecl& rule, bool transformation_calls = false);

// σ(M): every occurrence of a metavariable replaced by its term, without renaming.
Term instantiate(const Term& m, const std::map<std::string, Term>& sigma);

// A free occurrence of variable `name`, with the variables bound around it (innermost last).
struct Occurrence {
  std::vector<int> path;
  VarScope visible;
};
std::vector<Occurrence> occurrences(const Term& m, const std::string& name, VarScope visible);
// m with the subterm at `path` replaced by n.
Term replace_at(const Term& m, const std::vector<int>& path, const Term& n);

std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p);

// The first real component of a term of Euclidean type (x, x.1, x.1.2, ...).
Term real_atom(const Term& t, const Type& ty);

} // namespace adsem::pullback
