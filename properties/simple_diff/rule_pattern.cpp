#include "properties/simple_diff/rule_pattern.hpp"

#include "properties/core/rule_support.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff {

namespace {

const TermPtr& kid(const Node& n, int i) {
  return i == 0 ? n.a : i == 1 ? n.b : n.c;
}

// The variables a child of n sees, given what n sees (seed 003 Fig. 1: let and rd bind in their
// body; a letrec body sees its parameter only, T-letrec).
void enter(const Node& n, int i, VarScope& visible, bool& outer) {
  if (n.kind == NodeKind::let && i == 1) visible.emplace_back(n.name, n.type);
  if (n.kind == NodeKind::rd && i == 2) visible.emplace_back(n.param, n.type);
  if (n.kind == NodeKind::letrec && i == 0) {
    visible = {{n.param, n.type}};
    outer = false;
  }
}

bool binds(const VarScope& visible, const std::string& x) {
  return std::ranges::any_of(visible, [&](const auto& v) { return v.first == x; });
}

// Calls f(node, visible, outer) on every free variable occurrence (names not in `visible`).
template <class F>
void free_vars(const TermPtr& m, const VarScope& visible, bool outer, std::vector<int>& path,
               F&& f) {
  if (m->kind == NodeKind::var && !binds(visible, m->name)) f(*m, visible, outer, path);
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
void binder_names(const Node& n,
                  std::vector<std::pair<std::string, std::optional<SourcePos>>>& out) {
  if (n.kind == NodeKind::let || n.kind == NodeKind::letrec) out.emplace_back(n.name, n.pos);
  if (n.kind == NodeKind::rd || n.kind == NodeKind::letrec) out.emplace_back(n.param, n.pos);
  for (const TermPtr& c : {n.a, n.b, n.c})
    if (c) binder_names(*c, out);
}

VarScope intersect(const VarScope& a, const VarScope& b) {
  VarScope out;
  for (const auto& [x, t] : a)
    for (const auto& [y, u] : b)
      if (x == y && type_equal(t, u)) {
        out.emplace_back(x, t);
        break;
      }
  return out;
}

[[noreturn]] void fail_at(const rules::Fragment& side, const Node& n, ErrorKind kind,
                          const std::string& message) {
  throw AdsemError(kind, message,
                   n.pos ? rules::locate(side, *n.pos) : std::optional<SourcePos>(side.pos));
}

void check_free_names(const rules::RuleDecl& rule, Pattern& p) {
  std::vector<int> path;
  std::map<std::string, bool> seen;
  free_vars(p.lhs, {}, true, path, [&](const Node& n, const VarScope& vis, bool outer, auto&) {
    const rules::MetaDecl* decl = rules::find_meta(rule, n.name);
    if (!decl)
      fail_at(rule.lhs, n, ErrorKind::parse,
              fmt::format("'{}' is neither bound on the left-hand side nor a declared "
                          "metavariable (declare it: meta {} : T)",
                          n.name, n.name));
    auto it = std::ranges::find_if(p.metas, [&](const auto& m) { return m.name == n.name; });
    if (it == p.metas.end()) {
      p.metas.push_back(Metavariable{n.name, nullptr, vis, outer});
    } else {
      it->binders = intersect(it->binders, vis);
      it->outer = it->outer && outer;
    }
    seen[n.name] = true;
  });
  free_vars(p.rhs, {}, true, path, [&](const Node& n, const VarScope&, bool, auto&) {
    if (seen.contains(n.name)) return;
    if (rules::find_meta(rule, n.name))
      fail_at(rule.rhs, n, ErrorKind::parse,
              fmt::format("unbound metavariable '{}' on the right-hand side: it does not occur on "
                          "the left, so a rewrite would not know what to put there",
                          n.name));
    fail_at(rule.rhs, n, ErrorKind::parse,
            fmt::format("'{}' is neither bound on the right-hand side nor a metavariable of the "
                        "left-hand side",
                        n.name));
  });
}

void apply_conditions(const rules::RuleDecl& rule, Pattern& p) {
  rules::apply_conditions(
      rule, p.metas, [](const rules::Fragment& f) { return parse_type(f.text); },
      [](const TypePtr& a, const TypePtr& b) { return type_equal(a, b); },
      [](const TypePtr& t) { return print_type(t); }, "simple-diff types are monomorphic");
}

// Rules are small; a deeper pattern is refused before the recursive walks below (no deep
// recursion on the C++ stack: design.md "Engineering rules"). Iterative, so any depth is safe.
void check_depth(const TermPtr& m, const rules::Fragment& side) {
  constexpr int limit = 500;
  std::vector<std::pair<const Node*, int>> todo = {{m.get(), 1}};
  while (!todo.empty()) {
    const auto [n, depth] = todo.back();
    todo.pop_back();
    if (depth > limit)
      throw AdsemError(ErrorKind::parse,
                       fmt::format("the pattern nests deeper than {} levels; rules are meant to "
                                   "be small",
                                   limit),
                       side.pos);
    for (const TermPtr& c : {n->a, n->b, n->c})
      if (c) todo.emplace_back(c.get(), depth + 1);
  }
}

} // namespace

Pattern compile_pattern(const rules::RuleDecl& rule) {
  Pattern p;
  p.name = rule.name;
  // reserved names: the generator's binders (v1, v2, ...) and the hole
  static const std::regex reserved("v[0-9]+|hole'");
  for (const rules::Fragment* side : {&rule.lhs, &rule.rhs})
    for (const std::string& id : rules::identifiers(side->text))
      if (std::regex_match(id, reserved))
        throw AdsemError(ErrorKind::parse,
                         fmt::format("the name '{}' is reserved for generated binders (v1, v2, "
                                     "...); rename it",
                                     id),
                         side->pos);
  p.lhs = rules::within(rule.lhs, [&] { return parse_term(rule.lhs.text, primitives()); });
  p.rhs = rules::within(rule.rhs, [&] { return parse_term(rule.rhs.text, primitives()); });
  check_depth(p.lhs, rule.lhs);
  check_depth(p.rhs, rule.rhs);
  if (p.lhs->kind == NodeKind::var)
    throw AdsemError(ErrorKind::parse,
                     "the left-hand side is a lone variable: the rule would rewrite every term",
                     rule.lhs.pos);

  check_free_names(rule, p);
  // metavariables' types, and binders that would capture them
  std::vector<std::pair<std::string, std::optional<SourcePos>>> binders;
  binder_names(*p.lhs, binders);
  binder_names(*p.rhs, binders);
  for (Metavariable& m : p.metas) {
    const rules::MetaDecl& decl = *rules::find_meta(rule, m.name);
    m.type = rules::within(decl.type, [&] { return parse_type(decl.type.text); });
    p.gamma.emplace_back(m.name, m.type);
    for (const auto& [b, pos] : binders)
      if (b == m.name)
        throw AdsemError(
            ErrorKind::parse,
            fmt::format("'{}' is a metavariable and cannot also be a bound variable", b), rule.pos);
  }
  // declaration order, so that generation order does not depend on where they occur first
  std::ranges::stable_sort(p.metas, [&](const Metavariable& a, const Metavariable& b) {
    const auto index = [&](const std::string& n) {
      return std::ranges::find_if(rule.metas, [&](const auto& d) { return d.name == n; }) -
             rule.metas.begin();
    };
    return index(a.name) < index(b.name);
  });
  apply_conditions(rule, p);

  const Typed left =
      rules::within(rule.lhs, [&] { return typecheck(p.lhs, primitives(), p.gamma); });
  const Typed right =
      rules::within(rule.rhs, [&] { return typecheck(p.rhs, primitives(), p.gamma); });
  if (!type_equal(left.type, right.type))
    throw AdsemError(ErrorKind::type,
                     fmt::format("ill-typed rule '{}': the left-hand side has type {} but the "
                                 "right-hand side has type {}",
                                 rule.name, print_type(left.type), print_type(right.type)),
                     rule.rhs.pos);
  p.type = left.type;
  for (const std::string& id : rules::identifiers(rule.lhs.text + " " + rule.rhs.text))
    p.names.push_back(id);
  collect_names(*p.lhs, p.names);
  collect_names(*p.rhs, p.names);
  return p;
}

TermPtr instantiate(const TermPtr& m, const std::map<std::string, TermPtr>& sigma) {
  if (!m) return m;
  if (m->kind == NodeKind::var)
    if (const auto it = sigma.find(m->name); it != sigma.end()) return it->second;
  TermPtr out = with_children(*m, instantiate(m->a, sigma), instantiate(m->b, sigma),
                              instantiate(m->c, sigma));
  if (m->sugar && !m->sugar->parts.empty()) {
    Sugar s = *m->sugar;
    for (TermPtr& part : s.parts)
      part = instantiate(part, sigma);
    out = with_sugar(out, std::move(s));
  }
  return out;
}

std::vector<Occurrence> occurrences(const TermPtr& m, const std::string& name, VarScope visible) {
  std::vector<Occurrence> out;
  std::vector<int> path;
  free_vars(m, visible, true, path, [&](const Node& n, const VarScope& vis, bool outer, auto& at) {
    if (n.name == name) out.push_back(Occurrence{at, vis, outer});
  });
  return out;
}

TermPtr replace_at(const TermPtr& m, const Path& path, const TermPtr& n) {
  if (path.empty()) return n;
  const Path rest(path.begin() + 1, path.end());
  TermPtr kids[3] = {m->a, m->b, m->c};
  kids[path.front()] = replace_at(kids[path.front()], rest, n);
  Node copy = *m;
  copy.a = kids[0];
  copy.b = kids[1];
  copy.c = kids[2];
  if (copy.sugar && !copy.sugar->parts.empty()) copy.sugar = nullptr; // stale parts
  return std::make_shared<const Node>(std::move(copy));
}

std::vector<rules::ZeroVariant> zero_variants(const Pattern& p) {
  struct Candidate {
    long size;
    Path path;
  };
  std::vector<Candidate> candidates;
  Path path;
  const auto walk = [&](auto&& self, const TermPtr& m) -> void {
    if (!m->is_boolean() && !path.empty()) candidates.push_back({term_size(*m), path});
    for (int i = 0; i < 3; ++i)
      if (kid(*m, i)) {
        path.push_back(i);
        self(self, kid(*m, i));
        path.pop_back();
      }
  };
  walk(walk, p.rhs);
  std::ranges::stable_sort(candidates,
                           [](const Candidate& a, const Candidate& b) { return a.size > b.size; });
  candidates.push_back({term_size(*p.rhs), {}}); // the whole right-hand side last
  // 0 of the subterm's type: try real first, then the rule's type and the metavariables' types
  std::vector<TypePtr> zero_types = {real_type(), p.type};
  for (const Metavariable& m : p.metas)
    zero_types.push_back(m.type);
  std::vector<rules::ZeroVariant> out;
  for (const Candidate& c : candidates) {
    const TermPtr replaced = subterm(p.rhs, c.path);
    for (const TypePtr& t : zero_types) {
      const TermPtr zero = zero_of(t, !t->is_real()); // zero[T] printed, 0 at real
      if (alpha_equal(zero, replaced)) break;         // already zero
      const TermPtr mutated = replace_at(p.rhs, c.path, zero);
      try {
        if (!type_equal(typecheck(mutated, primitives(), p.gamma).type, p.type)) continue;
      } catch (const AdsemError&) {
        continue; // not of type t there
      }
      out.push_back({print_term(replaced), print_term(mutated), print_term(zero)});
      break;
    }
  }
  return out;
}

} // namespace adsem::simple_diff
