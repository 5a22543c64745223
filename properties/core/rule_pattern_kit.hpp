#pragma once
// The compile steps every calculus's compile_pattern and instance drawing share (rule_compile.hpp
// has the messages; term_view.hpp the pattern walk itself): the free names of both sides against
// the declarations, the scope of a metavariable (the binders around every occurrence),
// declaration order, binders that would capture a metavariable, and an instance plugged into one
// occurrence of a context's hole. `each_free(f)` calls f(name, pos) on every free variable
// occurrence of one side, pos located in the rule file.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "properties/core/rule_compile.hpp"

namespace adsem::rules {

// The metavariables of the left in order of first occurrence; located errors for a free name on
// the left that is not declared, and for one on the right that is not a metavariable of the left.
template <class EachFreeLeft, class EachFreeRight>
std::vector<std::string> check_free_names(const RuleDecl& rule, EachFreeLeft&& left,
                                          EachFreeRight&& right) {
  std::vector<std::string> on_left;
  left([&](const std::string& name, SourcePos pos) {
    if (!find_meta(rule, name)) fail_undeclared_on_left(name, pos);
    if (std::ranges::find(on_left, name) == on_left.end()) on_left.push_back(name);
  });
  right([&](const std::string& name, SourcePos pos) {
    if (std::ranges::find(on_left, name) == on_left.end())
      fail_free_on_right(name, find_meta(rule, name) != nullptr, pos);
  });
  return on_left;
}

// Whether a scope (a vector of (variable, type) pairs) has a variable named x.
template <class Scope> bool has_var(const Scope& scope, const std::string& x) {
  return std::ranges::any_of(scope, [&](const auto& v) { return v.first == x; });
}

// The variables of `a` that `b` binds at the same type (a metavariable sees only the binders
// around every one of its occurrences).
template <class Scope, class SameType>
Scope intersect_scopes(const Scope& a, const Scope& b, SameType&& same_type) {
  Scope out;
  for (const auto& [x, t] : a)
    if (std::ranges::any_of(b,
                            [&](const auto& v) { return v.first == x && same_type(v.second, t); }))
      out.emplace_back(x, t);
  return out;
}

// Metavariables in declaration order, so that generation order does not depend on where they
// occur first.
template <class Meta> void sort_by_declaration(std::vector<Meta>& metas, const RuleDecl& rule) {
  const auto index = [&](const std::string& n) {
    return std::ranges::find_if(rule.metas, [&](const auto& d) { return d.name == n; }) -
           rule.metas.begin();
  };
  std::ranges::stable_sort(
      metas, [&](const Meta& a, const Meta& b) { return index(a.name) < index(b.name); });
}

// A binder of either side named like a metavariable would capture it.
template <class Names>
void refuse_bound_metavariable(const RuleDecl& rule, const Names& binders,
                               const std::string& meta) {
  if (std::ranges::find(binders, meta) != std::ranges::end(binders))
    throw AdsemError(
        ErrorKind::parse,
        fmt::format("'{}' is a metavariable and cannot also be a bound variable", meta), rule.pos);
}

// "M := ..." appended to the list a report shows.
inline void add_assignment(std::string& shown, const std::string& name, const std::string& term) {
  shown += fmt::format("{}{} := {}", shown.empty() ? "" : ", ", name, term);
}

// The context with every occurrence of its hole but `which` made the zero of the hole's type (the
// instance sits at one place and the context stays well typed).
template <class Term, class Occurrence, class ReplaceAt>
Term zero_other_holes(Term context, const std::vector<Occurrence>& holes, std::size_t which,
                      const Term& zero, ReplaceAt&& replace_at) {
  for (std::size_t i = 0; i < holes.size(); ++i)
    if (i != which) context = replace_at(context, holes[i].path, zero);
  return context;
}

// C[σ(LHS)], C[σ(RHS)], and C with `marker` ("[ ]") at the hole, from a context whose other
// holes are zero.
template <class Term> struct Plugged { Term before, after, shown; };
template <class Term, class Occurrence, class ReplaceAt>
Plugged<Term> plug_instance(const Term& context, const std::vector<Occurrence>& holes,
                            std::size_t which, const Term& zero, const Term& lhs, const Term& rhs,
                            const Term& marker, ReplaceAt&& replace_at) {
  const Term c = zero_other_holes(context, holes, which, zero, replace_at);
  const auto& path = holes[which].path;
  return {replace_at(c, path, lhs), replace_at(c, path, rhs), replace_at(c, path, marker)};
}

} // namespace adsem::rules
