#include "properties/simple_diff/rule_pattern.hpp"

#include "properties/core/rule_pattern_kit.hpp"

#include <algorithm>
#include <array>
#include <regex>

#include <fmt/format.h>

#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

const Term& kid(const Node& n, int i) {
  return i == 0 ? n.a : i == 1 ? n.b : n.c;
}

// The variables a child of n sees, given what n sees (seed 003 Fig. 1: let and rd bind in their
// body; a letrec body sees its parameter only, T-letrec).
void enter(const Node& n, int i, VarScope& visible, bool& outer) {
  if (n.kind == Kind::let && i == 1) visible.emplace_back(n.name, n.type);
  if (n.kind == Kind::rd && i == 2) visible.emplace_back(n.param, n.type);
  if (n.kind == Kind::letrec && i == 0) {
    visible = {{n.param, n.type}};
    outer = false;
  }
}

bool binds(const VarScope& visible, const std::string& x) {
  return std::ranges::any_of(visible, [&](const auto& v) { return v.first == x; });
}

// Calls f(node, visible, outer) on every free variable occurrence (names not in `visible`).
template <class F>
void free_vars(const Term& m, const VarScope& visible, bool outer, std::vector<int>& path, F&& f) {
  if (m->kind == Kind::var && !binds(visible, m->name)) f(*m, visible, outer, path);
  for (int i = 0; i < 3; ++i) {
    if (!kid(*m, i)) continue;
    VarScope inner = visible;
    bool inner_outer = outer;
    enter(*m, i, inner, inner_outer);
    path.push_back(i);
    free_vars(kid(*m, i), inner, inner_outer, path, f);
    path.pop_back();
  }
}

// The binders the pattern introduces (let, rd, letrec and its parameter): each must be fresh.
void binder_names(const Node& n, std::vector<std::string>& out) {
  if (n.kind == Kind::let || n.kind == Kind::letrec) out.push_back(n.name);
  if (n.kind == Kind::rd || n.kind == Kind::letrec) out.push_back(n.param);
  for (const Term& c : {n.a, n.b, n.c})
    if (c) binder_names(*c, out);
}

// The free variables of one side, located in the rule file.
auto each_free(const Term& m, const rules::Fragment& side) {
  return [&m, &side](auto&& f) {
    std::vector<int> path;
    free_vars(m, {}, true, path, [&](const Node& n, const VarScope&, bool, auto&) {
      f(n.name, n.pos ? rules::locate(side, *n.pos) : side.pos);
    });
  };
}

// Each metavariable's binders (those around every occurrence on the left) and whether the
// variables around the instance are visible at all of them.
void scope_metas(Pattern& p) {
  std::vector<int> path;
  free_vars(p.lhs, {}, true, path, [&](const Node& n, const VarScope& vis, bool outer, auto&) {
    auto it = std::ranges::find_if(p.metas, [&](const auto& m) { return m.name == n.name; });
    if (it == p.metas.end()) {
      p.metas.push_back(Metavariable{n.name, nullptr, vis, outer});
    } else {
      it->binders = rules::intersect_scopes(
          it->binders, vis, [](const Type& a, const Type& b) { return same_type(a, b); });
      it->outer = it->outer && outer;
    }
  });
}

// Rules are small; a deeper pattern is refused before the recursive walks below (no deep
// recursion on the C++ stack: design.md "Engineering rules").
void check_depth(const Term& m, const rules::Fragment& side) {
  rules::refuse_deep_pattern(
      m,
      [](const Node& n) {
        return std::array<Term, 3>{n.a, n.b, n.c};
      },
      side);
}

} // namespace

Pattern compile_pattern(const rules::RuleDecl& rule) {
  Pattern p;
  p.name = rule.name;
  // reserved names: the generator's binders (v1, v2, ...) and the hole
  static const std::regex reserved("v[0-9]+|hole'");
  rules::refuse_reserved_names(rule, reserved, "binders (v1, v2, ...)");
  p.lhs = rules::within(rule.lhs, [&] { return parse_term(rule.lhs.text, primitives()); });
  p.rhs = rules::within(rule.rhs, [&] { return parse_term(rule.rhs.text, primitives()); });
  check_depth(p.lhs, rule.lhs);
  check_depth(p.rhs, rule.rhs);
  if (p.lhs->kind == Kind::var) rules::fail_lone_variable(rule);

  rules::check_free_names(rule, each_free(p.lhs, rule.lhs), each_free(p.rhs, rule.rhs));
  scope_metas(p);
  // metavariables' types, and binders that would capture them
  std::vector<std::string> binders;
  binder_names(*p.lhs, binders);
  binder_names(*p.rhs, binders);
  for (Metavariable& m : p.metas) {
    const rules::MetaDecl& decl = *rules::find_meta(rule, m.name);
    m.type = rules::within(decl.type, [&] { return parse_type(decl.type.text); });
    p.gamma.emplace_back(m.name, m.type);
    rules::refuse_bound_metavariable(rule, binders, m.name);
  }
  rules::sort_by_declaration(p.metas, rule);
  rules::apply_conditions(
      rule, p.metas, [](const rules::Fragment& f) { return parse_type(f.text); },
      [](const Type& a, const Type& b) { return same_type(a, b); },
      [](const Type& t) { return print_type(t); }, "simple-diff types are monomorphic");

  const Typed left =
      rules::within(rule.lhs, [&] { return typecheck(p.lhs, primitives(), p.gamma); });
  const Typed right =
      rules::within(rule.rhs, [&] { return typecheck(p.rhs, primitives(), p.gamma); });
  if (!same_type(left.type, right.type))
    rules::fail_sides_differ(rule, print_type(left.type), print_type(right.type));
  p.type = left.type;
  for (const std::string& id : rules::identifiers(rule.lhs.text + " " + rule.rhs.text))
    p.names.push_back(id);
  collect_names(*p.lhs, p.names);
  collect_names(*p.rhs, p.names);
  return p;
}

Term instantiate(const Term& m, const std::map<std::string, Term>& sigma) {
  if (!m) return m;
  if (m->kind == Kind::var)
    if (const auto it = sigma.find(m->name); it != sigma.end()) return it->second;
  Term out = with_children(*m, instantiate(m->a, sigma), instantiate(m->b, sigma),
                           instantiate(m->c, sigma));
  if (m->sugar && !m->sugar->parts.empty()) {
    Sugar s = *m->sugar;
    for (Term& part : s.parts)
      part = instantiate(part, sigma);
    out = with_sugar(out, std::move(s));
  }
  return out;
}

std::vector<Occurrence> occurrences(const Term& m, const std::string& name, VarScope visible) {
  std::vector<Occurrence> out;
  std::vector<int> path;
  free_vars(m, visible, true, path, [&](const Node& n, const VarScope& vis, bool outer, auto& at) {
    if (n.name == name) out.push_back(Occurrence{at, vis, outer});
  });
  return out;
}

Term replace_at(const Term& m, const Path& path, const Term& n) {
  if (path.empty()) return n;
  const Path rest(path.begin() + 1, path.end());
  Term kids[3] = {m->a, m->b, m->c};
  kids[path.front()] = replace_at(kids[path.front()], rest, n);
  Node copy = *m;
  copy.a = kids[0];
  copy.b = kids[1];
  copy.c = kids[2];
  if (copy.sugar && !copy.sugar->parts.empty()) copy.sugar = nullptr; // stale parts
  return std::make_shared<const Node>(std::move(copy));
}

namespace {

// The term walk of the zero mutants (rule_pattern_kit.hpp).
struct TermOps {
  static std::array<Term, 3> children(const Term& m) { return {m->a, m->b, m->c}; }
  static Term replace_at(const Term& m, const Path& path, const Term& n) {
    return simple_diff::replace_at(m, path, n);
  }
  static bool same(const Term& a, const Term& b) { return alpha_equal(a, b); }
  static std::string print(const Term& m) { return simple_diff::print(m); }
};

} // namespace

std::vector<rules::ZeroVariant> zero_variants(const Pattern& p) {
  std::vector<Path> places = rules::zero_places<TermOps, Path>(
      p.rhs, [](const Term& m) { return !m->is_boolean(); },
      [](const Term& m) { return term_size(*m); });
  places.emplace_back(); // the whole right-hand side last
  // 0 of the subterm's type: try real first, then the rule's type and the metavariables' types
  std::vector<Term> zeros = {zero_of(real_type(), false), zero_of(p.type, !p.type->is_real())};
  for (const Metavariable& m : p.metas)
    zeros.push_back(zero_of(m.type, !m.type->is_real())); // zero[T] printed, 0 at real
  return rules::first_fitting_zeros<TermOps>(p.rhs, places, zeros, [&](const Term& mutated) {
    try {
      return same_type(typecheck(mutated, primitives(), p.gamma).type, p.type);
    } catch (const AdsemError&) {
      return false;
    }
  });
}

} // namespace adsem::simple_diff
