#include "properties/perturbative/rule_pattern.hpp"

#include <algorithm>
#include <functional>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "properties/core/rule_pattern_kit.hpp"
#include "semantics/perturbative/constants.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

// ---- traversals (one order for every walk: summands left to right; a simple term's operand
// before its argument) ----

// Calls f(var node, scope) on every variable occurrence not bound by a λ met on the way (the
// pattern's or the context's binders are pushed onto `scope` as the walk descends; a λ that
// rebinds `stop` hides the occurrences below it).
void visit_vars(const Term& m, Context& scope, const std::string& stop,
                const std::function<void(const Simple&, const Context&)>& f);
void visit_vars(const Simple& s, Context& scope, const std::string& stop,
                const std::function<void(const Simple&, const Context&)>& f) {
  switch (s.kind) {
  case Kind::var:
    f(s, scope);
    return;
  case Kind::lam:
    if (s.name == stop) return;
    scope.emplace_back(s.name, s.binder_type);
    visit_vars(*s.operand, scope, stop, f);
    scope.pop_back();
    return;
  case Kind::app:
    visit_vars(*s.operand, scope, stop, f);
    visit_vars(s.argument, scope, stop, f);
    return;
  case Kind::push:
  case Kind::inj:
  case Kind::proj:
    visit_vars(*s.operand, scope, stop, f);
    return;
  case Kind::numeral:
  case Kind::primitive:
    return;
  }
}
void visit_vars(const Term& m, Context& scope, const std::string& stop,
                const std::function<void(const Simple&, const Context&)>& f) {
  for (const SimpleP& s : m.items)
    visit_vars(*s, scope, stop, f);
}

// Rebuilds m through the smart constructors (so the sugar of L165-185 re-normalises), replacing
// each variable occurrence by what `leaf` returns (nullopt: keep it). A λ binding `stop` is kept
// whole (its body's `stop` is another variable). No renaming anywhere: capture is intended.
using Leaf = std::function<std::optional<Term>(const Simple&)>;
Term rebuild(const Term& m, const std::string& stop, const Leaf& leaf);
Term rebuild(const SimpleP& sp, const std::string& stop, const Leaf& leaf) {
  const Simple& s = *sp;
  switch (s.kind) {
  case Kind::var:
    if (auto replaced = leaf(s)) return *replaced;
    return single(sp);
  case Kind::lam:
    if (s.name == stop) return single(sp);
    return lam(s.name, s.binder_type, rebuild(s.operand, stop, leaf));
  case Kind::app: {
    Term op = rebuild(s.operand, stop, leaf); // operand first: the traversal order of visit_vars
    return app(op, rebuild(s.argument, stop, leaf));
  }
  case Kind::push:
  case Kind::inj:
  case Kind::proj:
    return with_operand(s, rebuild(s.operand, stop, leaf));
  case Kind::numeral:
  case Kind::primitive:
    return single(sp);
  }
  return single(sp);
}
Term rebuild(const Term& m, const std::string& stop, const Leaf& leaf) {
  Term out = zero(m.type);
  for (const SimpleP& s : m.items)
    out = sum(out, rebuild(s, stop, leaf));
  return out;
}

// The scope with shadowed entries dropped (rightmost binding wins, Fig. 1 Var).
Context effective(const Context& scope) {
  Context out;
  for (auto it = scope.rbegin(); it != scope.rend(); ++it)
    if (std::ranges::none_of(out, [&](const auto& v) { return v.first == it->first; }))
      out.insert(out.begin(), *it);
  return out;
}

bool has_atom(const Type& t) {
  if (t->kind == TypeNode::Kind::atom) return true;
  return (is_product(t) || is_arrow(t)) && (has_atom(t->left) || has_atom(t->right));
}

// Parses one side; an unbound name is the rule language's located error `unbound(name, pos)`.
Term parse_side(const rules::Fragment& side, const std::string& text, const Context& gamma,
                const std::function<void(const std::string&, std::optional<SourcePos>)>& unbound) {
  return rules::within(side, [&] {
    try {
      return parse_term(text, constant_types(), gamma);
    } catch (const AdsemError& e) {
      const Diagnostic& d = e.diagnostic();
      static const std::string prefix = "unbound variable '";
      if (d.kind != ErrorKind::type || !d.message.starts_with(prefix)) throw;
      unbound(d.message.substr(prefix.size(), d.message.find('\'', prefix.size()) - prefix.size()),
              d.pos);
      throw;
    }
  });
}

// The declared metavariables that the rule mentions, with their types (located errors for types
// this adapter cannot generate terms of, and for names of primitives).
Context declared_metas(const rules::RuleDecl& rule) {
  Context out;
  const auto mentioned = rules::identifiers(rule.lhs.text + " " + rule.rhs.text);
  for (const std::string& name : mentioned) {
    const rules::MetaDecl* decl = rules::find_meta(rule, name);
    if (!decl || std::ranges::any_of(out, [&](const auto& v) { return v.first == name; })) continue;
    if (constant_types()(name))
      throw AdsemError(ErrorKind::parse,
                       fmt::format("metavariable '{}' has the name of a primitive of the "
                                   "calculus; rename it",
                                   name),
                       decl->pos);
    const Type t = rules::within(decl->type, [&] { return parse_type(decl->type.text); });
    if (has_atom(t))
      throw AdsemError(ErrorKind::parse,
                       fmt::format("metavariable '{}' : {} mentions an atomic type: perturbative "
                                   "has no terms of atomic types but variables and 0, so no "
                                   "instance could be generated (use R)",
                                   name, type_text(t)),
                       decl->type.pos);
    out.emplace_back(name, t);
  }
  return out;
}

void check_names(const rules::RuleDecl& rule, const Pattern& p, const Context& declared) {
  // the generator's binders are x0, x1, ...: a pattern binder of that name could capture them
  static const std::regex reserved("x[0-9]+");
  rules::refuse_reserved_names(rule, reserved, "binders (x0, x1, ...)");
  std::vector<std::string> binders;
  binders_of(p.lhs, binders);
  binders_of(p.rhs, binders);
  for (const std::string& b : binders)
    if (std::ranges::any_of(declared, [&](const auto& v) { return v.first == b; }))
      throw AdsemError(ErrorKind::parse,
                       fmt::format("'{}' is a metavariable and cannot also be a bound variable", b),
                       rule.pos);
}

} // namespace

void binders_of(const Simple& s, std::vector<std::string>& out) {
  if (s.kind == Kind::lam) out.push_back(s.name);
  if (s.operand) binders_of(*s.operand, out);
  if (s.kind == Kind::app) binders_of(s.argument, out);
}
void binders_of(const Term& m, std::vector<std::string>& out) {
  for (const SimpleP& s : m.items)
    binders_of(*s, out);
}

Pattern compile_pattern(const rules::RuleDecl& rule, const PatternOptions& options) {
  Pattern p;
  p.name = rule.name;
  const Context declared = declared_metas(rule);
  p.lhs = parse_side(rule.lhs, rule.lhs.text, declared, rules::fail_undeclared_on_left);
  // Rules are small; a deeper pattern is refused before the recursive walks below.
  constexpr int depth_limit = 500;
  if (depth_of(p.lhs) > depth_limit) rules::fail_too_deep(rule.lhs, depth_limit);

  // the metavariables of the left and the pattern binders around each of their occurrences
  Context scope;
  visit_vars(p.lhs, scope, "", [&](const Simple& v, const Context& around) {
    if (std::ranges::none_of(declared, [&](const auto& d) { return d.first == v.name; })) return;
    const Context visible = effective(around);
    auto it = std::ranges::find_if(p.metas, [&](const auto& m) { return m.name == v.name; });
    if (it == p.metas.end())
      p.metas.push_back(Metavariable{v.name, v.type, visible});
    else
      it->binders = rules::intersect_scopes(it->binders, visible, same_type);
  });
  if (!options.lone_metavariable && p.lhs.items.size() == 1 &&
      p.lhs.items.front()->kind == Kind::var && !p.metas.empty())
    throw AdsemError(ErrorKind::parse,
                     "the left-hand side is a lone metavariable: the rule would rewrite every "
                     "term",
                     rule.lhs.pos);
  // declaration order, so that generation order does not depend on where they occur first
  const auto index = [&](const std::string& n) {
    return std::ranges::find_if(declared, [&](const auto& d) { return d.first == n; }) -
           declared.begin();
  };
  std::ranges::stable_sort(p.metas, [&](const Metavariable& a, const Metavariable& b) {
    return index(a.name) < index(b.name);
  });
  for (const Metavariable& m : p.metas)
    p.gamma.emplace_back(m.name, m.type);
  Context right_gamma = p.gamma;
  right_gamma.insert(right_gamma.end(), options.right_only.begin(), options.right_only.end());
  const Type right_type = options.right_is_tangent ? tangent_type(p.lhs.type) : p.lhs.type;

  const auto unbound_right = [&](const std::string& name, std::optional<SourcePos> pos) {
    rules::fail_free_on_right(
        name, std::ranges::any_of(declared, [&](const auto& d) { return d.first == name; }), pos);
  };
  try {
    p.rhs = parse_side(rule.rhs, rule.rhs.text, right_gamma, unbound_right);
  } catch (const AdsemError& e) {
    // `0` and `in_k` are checked, never synthesised (spec §2.7): check the right-hand side
    // against the left's type, as if ascribed. The "(" shifts the first line by one column.
    if (!e.diagnostic().message.starts_with("cannot infer the type of")) throw;
    rules::Fragment shifted = rule.rhs;
    shifted.pos.column -= 1;
    p.rhs = parse_side(shifted, "(" + rule.rhs.text + "\n: " + type_text(right_type) + ")",
                       right_gamma, unbound_right);
  }
  if (depth_of(p.rhs) > depth_limit) rules::fail_too_deep(rule.rhs, depth_limit);
  check_names(rule, p, declared);
  rules::apply_conditions(
      rule, p.metas, [](const rules::Fragment& f) { return parse_type(f.text); }, same_type,
      [](const Type& t) { return type_text(t); },
      "perturbative types are monomorphic; T σ is σ * σ");
  if (!same_type(right_type, p.rhs.type))
    throw AdsemError(ErrorKind::type,
                     fmt::format("ill-typed rule '{}': the left-hand side has type {} but the "
                                 "right-hand side has type {}",
                                 rule.name, type_text(p.lhs.type), type_text(p.rhs.type)) +
                         (options.right_is_tangent
                              ? fmt::format(" (a clause of T_x gives T {} = {})",
                                            type_text(p.lhs.type, false), type_text(right_type))
                              : ""),
                     rule.rhs.pos);
  p.type = p.lhs.type;
  p.names = rules::identifiers(rule.lhs.text + " " + rule.rhs.text);
  return p;
}

Term instantiate(const Term& m, const std::map<std::string, Term>& sigma) {
  return rebuild(m, "", [&](const Simple& v) -> std::optional<Term> {
    if (const auto it = sigma.find(v.name); it != sigma.end()) return it->second;
    return std::nullopt;
  });
}

std::vector<Context> occurrences(const Term& m, const std::string& name, const Context& scope) {
  std::vector<Context> out;
  Context at = scope;
  visit_vars(m, at, name, [&](const Simple& v, const Context& around) {
    if (v.name == name) out.push_back(effective(around));
  });
  return out;
}

Term plug(const Term& m, const std::string& name, std::size_t k, const Term& with) {
  std::size_t seen = 0;
  return rebuild(m, name, [&](const Simple& v) -> std::optional<Term> {
    if (v.name != name) return std::nullopt;
    return seen++ == k ? with : zero(v.type);
  });
}

namespace {

// The places of a right-hand side that 0 can replace without an equivalent place: each summand
// of a bag (top level or an application's argument; a 0 in an operand position makes the
// enclosing summand 0, so that is the summand's place), and each argument with several summands
// as a whole.
struct ZeroPlace {
  bool whole_argument = false;
  int index = 0; // among places of that kind, in traversal order
  long size = 0;
  std::string shown;
};

class Zeroer {
public:
  Zeroer(bool whole_argument, int target) : whole_(whole_argument), target_(target) {}
  std::vector<ZeroPlace> places;

  Term bag(const Term& m, bool argument) {
    if (argument && m.items.size() > 1) {
      const int at = arguments_++;
      places.push_back({true, at, size_of(m), print(m)});
      if (whole_ && at == target_) return zero(m.type);
    }
    Term out = zero(m.type);
    for (const SimpleP& s : m.items) {
      const int at = summands_++;
      const Simple& inner = s->kind == Kind::inj ? *s->operand : *s; // show M for ⟨M, _⟩
      places.push_back({false, at, size_of(single(s)), print_simple(inner)});
      if (!whole_ && at == target_) continue;
      out = sum(out, simple(s));
    }
    return out;
  }

private:
  Term simple(const SimpleP& sp) {
    const Simple& s = *sp;
    switch (s.kind) {
    case Kind::lam:
      return lam(s.name, s.binder_type, simple(s.operand));
    case Kind::app: {
      Term op = simple(s.operand);
      return app(op, bag(s.argument, true));
    }
    case Kind::push:
    case Kind::inj:
    case Kind::proj:
      return with_operand(s, simple(s.operand));
    default:
      return single(sp);
    }
  }

  bool whole_;
  int target_;
  int arguments_ = 0, summands_ = 0;
};

} // namespace

std::vector<rules::ZeroVariant> zero_variants(const Pattern& p) {
  Zeroer lister(false, -1);
  lister.bag(p.rhs, false);
  std::vector<ZeroPlace> places = lister.places;
  std::ranges::stable_sort(places,
                           [](const ZeroPlace& a, const ZeroPlace& b) { return a.size > b.size; });
  std::vector<rules::ZeroVariant> out;
  std::set<std::string> seen = {canonical_key(p.rhs)};
  const auto offer = [&](const std::string& shown, const Term& mutated) {
    if (seen.insert(canonical_key(mutated)).second) out.push_back({shown, print(mutated), "0"});
  };
  for (const ZeroPlace& place : places)
    offer(place.shown, Zeroer(place.whole_argument, place.index).bag(p.rhs, false));
  offer(print(p.rhs), zero(p.type)); // the whole side, last
  return out;
}

} // namespace adsem::perturbative
