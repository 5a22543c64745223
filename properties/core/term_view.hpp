#pragma once
// One pattern walk for check-rule and user rules over a calculus's *term view*: the free
// variable occurrences of a term with their scopes and paths, metavariable scoping, binder
// names, σ-instantiation, replacement along a path, the depth refusal and free-variable
// renaming are written here once; a calculus says only how its terms look.
//
// A term view `V` (a small struct; a member may be static or read the view's state):
//   using Term;                         a term handle (a smart pointer; a null child is skipped)
//   using Scope;                        what a subterm sees: the binders around it
//   children(t)                         its children, an indexable range of Term
//   is_var(t), var_name(t)              a variable occurrence and its name
//   bound(scope, x)                     whether x is bound in the scope
//   enter(t, i, scope)                  the scope child i of t sees, from the scope t sees
//                                       (std::optional<Scope>; nullopt: the same)
//   binders(t, out)                     appends the names t itself binds
//   rebuild(t, kids)                    t with new children (derived caches dropped)
//   pos(t)                              where t was written (std::optional<SourcePos>)
// and, where substitution keeps more than children, `instantiated(t, kids, inst)`.
#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "properties/core/rule_check.hpp"
#include "properties/core/rule_compile.hpp"
#include "properties/core/rule_pattern_kit.hpp"

namespace adsem::rules {

template <class V> using ViewTerm = typename V::Term;
template <class V> using ViewScope = typename V::Scope;

// A null child (a pointer handle) is skipped; a value handle is always there.
template <class T> bool present(const T& t) {
  if constexpr (std::is_constructible_v<bool, T>)
    return static_cast<bool>(t);
  else
    return true;
}

template <class V> std::vector<ViewTerm<V>> kids_of(const V& v, const ViewTerm<V>& t) {
  const auto& kids = v.children(t);
  return std::vector<ViewTerm<V>>(kids.begin(), kids.end());
}

// Calls f(t, scope, path) on every free variable occurrence of t (names `scope` does not bind),
// in traversal order; an f that returns bool stops the walk by returning true (then so does
// this).
template <class V, class Path, class F>
bool each_free(const V& v, const ViewTerm<V>& t, const ViewScope<V>& scope, Path& path, F&& f) {
  if (v.is_var(t) && !v.bound(scope, v.var_name(t))) {
    if constexpr (std::is_same_v<decltype(f(t, scope, path)), bool>) {
      if (f(t, scope, path)) return true;
    } else {
      f(t, scope, path);
    }
  }
  const auto& kids = v.children(t);
  for (std::size_t i = 0; i < kids.size(); ++i) {
    if (!present(kids[i])) continue;
    path.push_back(static_cast<typename Path::value_type>(i));
    const std::optional<ViewScope<V>> inner = v.enter(t, i, scope);
    const bool stop = each_free(v, kids[i], inner ? *inner : scope, path, f);
    path.pop_back();
    if (stop) return true;
  }
  return false;
}

// The free variables of one side, located in the rule file (check_free_names' argument).
template <class V> auto each_free_located(const V& v, const ViewTerm<V>& t, const Fragment& side) {
  return [&v, &t, &side](auto&& f) {
    std::vector<int> path;
    each_free(v, t, ViewScope<V>{}, path, [&](const ViewTerm<V>& n, const auto&, const auto&) {
      const std::optional<SourcePos> at = v.pos(n);
      f(v.var_name(n), at ? locate(side, *at) : side.pos);
    });
  };
}

// The free occurrences of `name`, each made by make(path, scope).
template <class V, class Path, class Make>
auto occurrences_of(const V& v, const ViewTerm<V>& t, const std::string& name,
                    const ViewScope<V>& scope, Make&& make) {
  std::vector<decltype(make(std::declval<const Path&>(), scope))> out;
  Path path;
  each_free(v, t, scope, path, [&](const ViewTerm<V>& n, const ViewScope<V>& at, const Path& p) {
    if (v.var_name(n) == name) out.push_back(make(p, at));
  });
  return out;
}

// Whether x occurs free in t.
template <class V> bool occurs_free(const V& v, const ViewTerm<V>& t, const std::string& x) {
  std::vector<int> path;
  return each_free(v, t, ViewScope<V>{}, path, [&](const ViewTerm<V>& n, const auto&, const auto&) {
    return v.var_name(n) == x;
  });
}

// Each metavariable's binders: the variables visible (`v.visible(scope)`) around every one of
// its occurrences in lhs (a metavariable that also records whether the scope around the
// instance is visible, `outer`, keeps it only where it is at every occurrence).
template <class V, class Meta, class SameType>
void scope_metas(const V& v, const ViewTerm<V>& lhs, std::vector<Meta>& metas,
                 SameType&& same_type) {
  std::vector<bool> seen(metas.size(), false);
  std::vector<int> path;
  each_free(v, lhs, ViewScope<V>{}, path,
            [&](const ViewTerm<V>& n, const ViewScope<V>& scope, const auto&) {
              for (std::size_t i = 0; i < metas.size(); ++i) {
                if (metas[i].name != v.var_name(n)) continue;
                Meta& m = metas[i];
                m.binders = seen[i] ? intersect_scopes(m.binders, v.visible(scope), same_type)
                                    : v.visible(scope);
                if constexpr (requires { m.outer; }) m.outer = (!seen[i] || m.outer) && scope.outer;
                seen[i] = true;
              }
            });
}

// The names the binders of t introduce, in traversal order.
template <class V>
void binder_names(const V& v, const ViewTerm<V>& t, std::vector<std::string>& out) {
  v.binders(t, out);
  for (const auto& k : v.children(t))
    if (present(k)) binder_names(v, k, out);
}

// Rules are small; a pattern deeper than `limit` is refused before the recursive walks here
// (iteratively, so any depth is safe).
template <class V>
void check_depth(const V& v, const ViewTerm<V>& t, const Fragment& side, int limit = 500) {
  std::vector<std::pair<ViewTerm<V>, int>> todo = {{t, 1}};
  while (!todo.empty()) {
    const auto [n, depth] = todo.back();
    todo.pop_back();
    if (depth > limit) fail_too_deep(side, limit);
    for (const auto& k : v.children(n))
      if (present(k)) todo.emplace_back(k, depth + 1);
  }
}

// σ(t): every free occurrence of a metavariable replaced by its term, without renaming (the
// terms are built over the binders they may mention).
template <class V>
ViewTerm<V> instantiate(const V& v, const ViewTerm<V>& t,
                        const std::map<std::string, ViewTerm<V>>& sigma) {
  if (v.is_var(t))
    if (const auto it = sigma.find(v.var_name(t)); it != sigma.end()) return it->second;
  std::vector<ViewTerm<V>> kids = kids_of(v, t);
  bool any = false;
  for (auto& k : kids)
    if (present(k)) {
      k = instantiate(v, k, sigma);
      any = true;
    }
  if constexpr (requires { v.instantiated(t, kids, sigma); })
    return v.instantiated(t, std::move(kids), sigma);
  else
    return any ? v.rebuild(t, std::move(kids)) : t;
}

// t with the subterm at `path` (from index `from` on) replaced by `with`.
template <class V, class Path>
ViewTerm<V> replace_at(const V& v, const ViewTerm<V>& t, const Path& path, const ViewTerm<V>& with,
                       std::size_t from = 0) {
  if (from == path.size()) return with;
  std::vector<ViewTerm<V>> kids = kids_of(v, t);
  auto& k = kids.at(static_cast<std::size_t>(path[from]));
  k = replace_at(v, k, path, with, from + 1);
  return v.rebuild(t, std::move(kids));
}

// t with every free occurrence n replaced by leaf(n, scope) where that is not nullopt, in one
// pass in traversal order, without renaming; only the nodes above a replacement are rebuilt
// (nullopt: nothing was replaced).
template <class V, class Leaf>
std::optional<ViewTerm<V>> replaced_free(const V& v, const ViewTerm<V>& t,
                                         const ViewScope<V>& scope, Leaf& leaf) {
  if (v.is_var(t) && !v.bound(scope, v.var_name(t)))
    if (std::optional<ViewTerm<V>> with = leaf(t, scope)) return with;
  std::vector<ViewTerm<V>> kids = kids_of(v, t);
  bool changed = false;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    if (!present(kids[i])) continue;
    const std::optional<ViewScope<V>> inner = v.enter(t, i, scope);
    if (auto k = replaced_free(v, kids[i], inner ? *inner : scope, leaf)) {
      kids[i] = std::move(*k);
      changed = true;
    }
  }
  if (!changed) return std::nullopt;
  return v.rebuild(t, std::move(kids));
}
template <class V, class Leaf>
ViewTerm<V> replace_free(const V& v, const ViewTerm<V>& t, const ViewScope<V>& scope, Leaf leaf) {
  return replaced_free(v, t, scope, leaf).value_or(t);
}

template <class V, class Path> ViewTerm<V> subterm(const V& v, ViewTerm<V> t, const Path& path) {
  for (const auto i : path)
    t = v.children(t)[static_cast<std::size_t>(i)];
  return t;
}

// t with the free occurrences of x renamed to y, a fresh name (so nothing is captured).
template <class V>
ViewTerm<V> rename_free(const V& v, const ViewTerm<V>& t, const std::string& x,
                        const std::string& y) {
  return replace_free(v, t, ViewScope<V>{},
                      [&](const ViewTerm<V>& n, const auto&) -> std::optional<ViewTerm<V>> {
                        if (v.var_name(n) != x) return std::nullopt;
                        return v.renamed(n, y);
                      });
}

// ---- the steps of compile_pattern ----

template <class V> struct ParsedSides {
  ViewTerm<V> lhs, rhs;
  std::vector<std::string> on_left; // the metavariables of the left, in order of first occurrence
};

// Both sides parsed (`parse(text)`, located in the rule file), refused when too deep or when the
// left is a lone variable, and their free names checked against the declarations.
template <class V, class Parse>
ParsedSides<V> parse_sides(const V& v, const RuleDecl& rule, Parse&& parse) {
  ParsedSides<V> s;
  s.lhs = within(rule.lhs, [&] { return parse(rule.lhs.text); });
  s.rhs = within(rule.rhs, [&] { return parse(rule.rhs.text); });
  check_depth(v, s.lhs, rule.lhs);
  check_depth(v, s.rhs, rule.rhs);
  if (v.is_var(s.lhs)) fail_lone_variable(rule);
  s.on_left = check_free_names(rule, each_free_located(v, s.lhs, rule.lhs),
                               each_free_located(v, s.rhs, rule.rhs));
  return s;
}

// The declared type of each metavariable of the left (`parse_type(text)`), in order of first
// occurrence; one named like a binder of either side is refused (it would be captured).
template <class V, class ParseType>
auto declared_types(const V& v, const RuleDecl& rule, const ParsedSides<V>& s,
                    ParseType&& parse_type) {
  std::vector<std::string> binders;
  binder_names(v, s.lhs, binders);
  binder_names(v, s.rhs, binders);
  std::vector<std::pair<std::string, decltype(parse_type(std::string()))>> out;
  for (const std::string& name : s.on_left) {
    const MetaDecl& decl = *find_meta(rule, name);
    out.emplace_back(name, within(decl.type, [&] { return parse_type(decl.type.text); }));
    refuse_bound_metavariable(rule, binders, name);
  }
  return out;
}

// Both sides type-checked (`check(term)`, located in the rule file) at the same type; the two
// results (a calculus's Typed).
template <class Term, class Check, class Same, class Print>
auto typecheck_sides(const RuleDecl& rule, const Term& lhs, const Term& rhs, Check&& check,
                     Same&& same, Print&& print) {
  auto left = within(rule.lhs, [&] { return check(lhs); });
  auto right = within(rule.rhs, [&] { return check(rhs); });
  if (!same(left.type, right.type)) fail_sides_differ(rule, print(left.type), print(right.type));
  return std::pair{std::move(left), std::move(right)};
}

// ---- zero mutants (rule_check.hpp ZeroVariant), with the view's `same(a, b)` (α-equal) and
// `print(t)` ----

// The places of a right-hand side a zero may replace (those `keep` accepts: keep(t), or
// keep(t, parent, i) for the i-th child of parent), largest subterm first (traversal order among
// equals); the whole side is not among them.
template <class V, class Path, class Keep, class Size>
std::vector<Path> zero_places(const V& v, const ViewTerm<V>& rhs, Keep&& keep, Size&& size) {
  using T = ViewTerm<V>;
  std::vector<std::pair<long, Path>> found;
  Path path;
  const auto walk = [&](auto&& self, const T& t) -> void {
    const auto& kids = v.children(t);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (!present(kids[i])) continue;
      path.push_back(static_cast<typename Path::value_type>(i));
      bool kept = false;
      if constexpr (std::is_invocable_v<Keep&, const T&, const T&, std::size_t>)
        kept = keep(kids[i], t, i);
      else
        kept = keep(kids[i]);
      if (kept) found.emplace_back(static_cast<long>(size(kids[i])), path);
      self(self, kids[i]);
      path.pop_back();
    }
  };
  walk(walk, rhs);
  std::ranges::stable_sort(found, [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<Path> out;
  for (auto& f : found)
    out.push_back(std::move(f.second));
  return out;
}

// At each place, the first of `zeros` that the subterm is not already and with which the side
// still `fits` (type-checks at the rule's type).
template <class V, class Path, class Fits>
std::vector<ZeroVariant> first_fitting_zeros(const V& v, const ViewTerm<V>& rhs,
                                             const std::vector<Path>& places,
                                             const std::vector<ViewTerm<V>>& zeros, Fits&& fits) {
  std::vector<ZeroVariant> out;
  for (const Path& path : places) {
    const ViewTerm<V> replaced = subterm(v, rhs, path);
    for (const ViewTerm<V>& zero : zeros) {
      if (v.same(zero, replaced)) break; // already zero
      const ViewTerm<V> mutated = replace_at(v, rhs, path, zero);
      if (!fits(mutated)) continue; // not of that type there
      out.push_back({v.print(replaced), v.print(mutated), v.print(zero)});
      break;
    }
  }
  return out;
}

} // namespace adsem::rules
