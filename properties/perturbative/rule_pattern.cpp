#include "properties/perturbative/rule_pattern.hpp"

#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "properties/core/term_view.hpp"
#include "semantics/perturbative/constants.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative {

namespace {

// The term view (properties/core/term_view.hpp): a bag of one summand is that simple term (so a
// path never stops at a singleton bag), whose children are its operand and, for an application,
// its argument; any other bag's children are its summands. Rebuilding goes through the smart
// constructors, so the sugar of L165-185 re-normalises an instance; one order for every walk:
// summands left to right, a simple term's operand before its argument.
struct TermView {
  using Term = perturbative::Term;
  struct Scope {
    Context around;                 // the context given, then the λs met on the way
    std::vector<std::string> bound; // the λs met on the way (a context's names stay free)
  };
  static std::vector<Term> children(const Term& m) {
    std::vector<Term> out;
    if (m.items.size() != 1) {
      for (const SimpleP& s : m.items)
        out.push_back(single(s));
      return out;
    }
    const Simple& s = *m.items.front();
    if (s.operand) out.push_back(single(s.operand));
    if (s.kind == Kind::app) out.push_back(s.argument);
    return out;
  }
  static bool is_var(const Term& m) { return m.items.size() == 1 && m.items[0]->kind == Kind::var; }
  static const std::string& var_name(const Term& m) { return m.items[0]->name; }
  static bool bound(const Scope& s, const std::string& x) {
    return std::ranges::find(s.bound, x) != s.bound.end();
  }
  // the scope with shadowed entries dropped (rightmost binding wins, Fig. 1 Var)
  static Context visible(const Scope& s) {
    Context out;
    for (auto it = s.around.rbegin(); it != s.around.rend(); ++it)
      if (!adsem::rules::has_var(out, it->first)) out.insert(out.begin(), *it);
    return out;
  }
  static std::optional<Scope> enter(const Term& m, std::size_t, const Scope& s) {
    if (m.items.size() != 1 || m.items[0]->kind != Kind::lam) return std::nullopt;
    Scope inner = s;
    inner.around.emplace_back(m.items[0]->name, m.items[0]->binder_type);
    inner.bound.push_back(m.items[0]->name);
    return inner;
  }
  static void binders(const Term& m, std::vector<std::string>& out) {
    if (m.items.size() == 1 && m.items[0]->kind == Kind::lam) out.push_back(m.items[0]->name);
  }
  static Term rebuild(const Term& m, const std::vector<Term>& kids) {
    if (m.items.size() != 1) {
      Term out = zero(m.type);
      for (const Term& k : kids)
        out = sum(out, k);
      return out;
    }
    const Simple& s = *m.items.front();
    return s.kind == Kind::app ? app(kids[0], kids[1]) : with_operand(s, kids[0]);
  }
};

constexpr TermView view;

bool has_atom(const Type& t) {
  if (t->kind == TypeNode::Kind::atom) return true;
  return (is_product(t) || is_arrow(t)) && (has_atom(t->left) || has_atom(t->right));
}

// Parses one side in gamma; an unbound name is the rule language's located error `unbound(name,
// pos)`.
template <class Unbound>
Term parse_side(const adsem::rules::Fragment& side, const std::string& text, const Context& gamma,
                Unbound&& unbound) {
  return adsem::rules::parse_reporting_unbound(
      side, [&] { return parse_term(text, constant_types(), gamma); }, unbound);
}

// The declared metavariables that the rule mentions, with their types (located errors for types
// this adapter cannot generate terms of, and for names of primitives).
Context declared_metas(const adsem::rules::RuleDecl& rule) {
  Context out;
  const auto mentioned = adsem::rules::identifiers(rule.lhs.text + " " + rule.rhs.text);
  for (const std::string& name : mentioned) {
    const adsem::rules::MetaDecl* decl = adsem::rules::find_meta(rule, name);
    if (!decl || adsem::rules::has_var(out, name)) continue;
    if (constant_types()(name))
      throw AdsemError(ErrorKind::parse,
                       fmt::format("metavariable '{}' has the name of a primitive of the "
                                   "calculus; rename it",
                                   name),
                       decl->pos);
    const Type t = adsem::rules::within(decl->type, [&] { return parse_type(decl->type.text); });
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

// Whether m has a variable x, free or bound (a metavariable's name bound on the left makes it a
// metavariable of the left too, so that check_names, not the right-hand side, refuses the rule).
bool mentions(const Term& m, const std::string& x) {
  if (view.is_var(m)) return view.var_name(m) == x;
  return std::ranges::any_of(view.children(m), [&](const Term& k) { return mentions(k, x); });
}

void check_names(const adsem::rules::RuleDecl& rule, const Pattern& p, const Context& declared) {
  // the generator's binders are x0, x1, ...: a pattern binder of that name could capture them
  static const std::regex reserved("x[0-9]+");
  adsem::rules::refuse_reserved_names(rule, reserved, "binders (x0, x1, ...)");
  std::vector<std::string> binders;
  binders_of(p.lhs, binders);
  binders_of(p.rhs, binders);
  for (const std::string& b : binders)
    if (adsem::rules::has_var(declared, b))
      throw AdsemError(ErrorKind::parse,
                       fmt::format("'{}' is a metavariable and cannot also be a bound variable", b),
                       rule.pos);
}

} // namespace

void binders_of(const Term& m, std::vector<std::string>& out) {
  adsem::rules::binder_names(view, m, out);
}

Pattern compile_pattern(const adsem::rules::RuleDecl& rule, const PatternOptions& options) {
  Pattern p;
  p.name = rule.name;
  const Context declared = declared_metas(rule);
  p.lhs = parse_side(rule.lhs, rule.lhs.text, declared, adsem::rules::fail_undeclared_on_left);
  // Rules are small; a deeper pattern is refused before the recursive walks below.
  constexpr int depth_limit = 500;
  if (depth_of(p.lhs) > depth_limit) adsem::rules::fail_too_deep(rule.lhs, depth_limit);

  // the metavariables of the left, in declaration order (so that generation order does not depend
  // on where they occur first), and the pattern binders around each of their occurrences
  for (const auto& [name, type] : declared)
    if (mentions(p.lhs, name)) p.metas.push_back(Metavariable{name, type, {}});
  adsem::rules::scope_metas(view, p.lhs, p.metas, same_type);
  if (!options.lone_metavariable && p.lhs.items.size() == 1 &&
      p.lhs.items.front()->kind == Kind::var && !p.metas.empty())
    throw AdsemError(ErrorKind::parse,
                     "the left-hand side is a lone metavariable: the rule would rewrite every "
                     "term",
                     rule.lhs.pos);
  for (const Metavariable& m : p.metas)
    p.gamma.emplace_back(m.name, m.type);
  Context right_gamma = p.gamma;
  right_gamma.insert(right_gamma.end(), options.right_only.begin(), options.right_only.end());
  const Type right_type = options.right_is_tangent ? tangent_type(p.lhs.type) : p.lhs.type;

  const auto unbound_right = [&](const std::string& name, std::optional<SourcePos> pos) {
    adsem::rules::fail_free_on_right(name, adsem::rules::has_var(declared, name), pos);
  };
  try {
    p.rhs = parse_side(rule.rhs, rule.rhs.text, right_gamma, unbound_right);
  } catch (const AdsemError& e) {
    // `0` and `in_k` are checked, never synthesised (spec §2.7): check the right-hand side
    // against the left's type, as if ascribed. The "(" shifts the first line by one column.
    if (!e.diagnostic().message.starts_with("cannot infer the type of")) throw;
    adsem::rules::Fragment shifted = rule.rhs;
    shifted.pos.column -= 1;
    p.rhs = parse_side(shifted, "(" + rule.rhs.text + "\n: " + type_text(right_type) + ")",
                       right_gamma, unbound_right);
  }
  if (depth_of(p.rhs) > depth_limit) adsem::rules::fail_too_deep(rule.rhs, depth_limit);
  check_names(rule, p, declared);
  adsem::rules::apply_conditions(
      rule, p.metas, [](const adsem::rules::Fragment& f) { return parse_type(f.text); }, same_type,
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
  p.names = adsem::rules::identifiers(rule.lhs.text + " " + rule.rhs.text);
  return p;
}

Term instantiate(const Term& m, const std::map<std::string, Term>& sigma) {
  return adsem::rules::instantiate(view, m, sigma);
}

std::vector<Context> occurrences(const Term& m, const std::string& name, const Context& scope) {
  return adsem::rules::occurrences_of<TermView, std::vector<int>>(
      view, m, name, {scope, {}},
      [](const std::vector<int>&, const TermView::Scope& s) { return view.visible(s); });
}

Term plug(const Term& m, const std::string& name, std::size_t k, const Term& with) {
  std::size_t seen = 0;
  return adsem::rules::replace_free(view, m, {},
                                    [&](const Term& v, const auto&) -> std::optional<Term> {
                                      if (view.var_name(v) != name) return std::nullopt;
                                      return seen++ == k ? with : zero(v.type);
                                    });
}

// The places of a right-hand side that 0 can replace without an equivalent place: each summand of
// a bag (top level or an application's argument; a 0 in an operand position makes the enclosing
// summand 0, so that is the summand's place), and each argument with several summands as a whole.
std::vector<adsem::rules::ZeroVariant> zero_variants(const Pattern& p) {
  std::vector<std::vector<int>> places = adsem::rules::zero_places<TermView, std::vector<int>>(
      view, p.rhs,
      [](const Term& t, const Term& parent, std::size_t i) {
        return !t.is_zero() &&
               (parent.items.size() != 1 || (parent.items[0]->kind == Kind::app && i == 1));
      },
      [](const Term& t) { return size_of(t); });
  if (p.rhs.items.size() == 1)
    places.insert(places.begin(), std::vector<int>{}); // the side's one summand
  std::vector<adsem::rules::ZeroVariant> out;
  std::set<std::string> seen = {canonical_key(p.rhs)};
  const auto offer = [&](const std::string& shown, const Term& mutated) {
    if (seen.insert(canonical_key(mutated)).second) out.push_back({shown, print(mutated), "0"});
  };
  for (const std::vector<int>& path : places) {
    const Term t = adsem::rules::subterm(view, p.rhs, path);
    const Simple& s = *t.items.front(); // show M for ⟨M, _⟩
    offer(t.items.size() > 1 ? print(t) : print_simple(s.kind == Kind::inj ? *s.operand : s),
          adsem::rules::replace_at(view, p.rhs, path, zero(t.type)));
  }
  offer(print(p.rhs), zero(p.type)); // the whole side, last
  return out;
}

} // namespace adsem::perturbative
