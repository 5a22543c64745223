#include "properties/linear_negation/rule_pattern.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "properties/core/rule_pattern_kit.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

bool binds_kid(const Node& n, std::size_t i) {
  return i == 0 && (n.kind == Kind::lam || n.kind == Kind::let || n.kind == Kind::let_pair);
}

// Calls f(node, visible, path) on every free variable occurrence. `visible` holds the exponential
// variables in scope; `bound` every bound name (linear binders too: seed 002 Table 1, a linear
// variable z is only usable inside Γ ⊢_z, never by an exponential term).
template <class F>
void free_vars(const Term& t, VarScope& visible, std::vector<std::string>& bound, Path& path,
               F&& f) {
  if (t->kind == Kind::var) {
    if (std::ranges::find(bound, t->name) == bound.end()) f(*t, visible, path);
    return;
  }
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    std::size_t pushed_visible = 0, pushed_bound = 0;
    if (binds_kid(*t, i)) {
      for (const Binder* b : {&t->x, &t->y}) {
        if (b->name.empty() || (b == &t->y && t->kind != Kind::let_pair)) continue;
        bound.push_back(b->name);
        ++pushed_bound;
        if (!b->linear) {
          visible.emplace_back(b->name, b->type);
          ++pushed_visible;
        }
      }
    }
    path.push_back(static_cast<int>(i));
    free_vars(t->kids[i], visible, bound, path, f);
    path.pop_back();
    visible.resize(visible.size() - pushed_visible);
    bound.resize(bound.size() - pushed_bound);
  }
}

template <class F> void each_free(const Term& t, VarScope visible, F&& f) {
  std::vector<std::string> bound;
  for (const auto& v : visible)
    bound.push_back(v.first);
  Path path;
  free_vars(t, visible, bound, path, f);
}

bool in_scope(const VarScope& s, const std::string& x) {
  return std::ranges::any_of(s, [&](const auto& v) { return v.first == x; });
}

// The free variables of one side, located in the rule file.
auto each_free_located(const Term& t, const rules::Fragment& side) {
  return [&t, &side](auto&& f) {
    each_free(t, {}, [&](const Node& n, const VarScope&, const Path&) {
      f(n.name, n.pos ? rules::locate(side, *n.pos) : side.pos);
    });
  };
}

// Type-checks one side in Γ = the metavariables, located in the rule file. A metavariable in a
// position that must be linear gets a hint: metavariables are exponential terms.
Typed check_side(const rules::Fragment& side, const Term& t, const Context& gamma, bool source) {
  return rules::within(side, [&] {
    try {
      TypeOptions o;
      o.source = source;
      return typecheck(t, gamma, signature(), std::nullopt, o);
    } catch (const AdsemError& e) {
      Diagnostic d = e.diagnostic();
      for (const auto& [m, type] : gamma)
        if (d.message.starts_with("exponential variable " + m + " where")) {
          d.message += fmt::format(
              "; metavariable {} stands for an exponential term (Γ ⊢ {} : {}), and a position "
              "linear in a variable needs a term of Γ ⊢_z (linear metavariables are not part of "
              "the rule language)",
              m, m, type_text(type));
          break;
        }
      throw AdsemError(std::move(d));
    }
  });
}

void apply_conditions(const rules::RuleDecl& rule, Pattern& p, const Term& lhs) {
  for (const rules::Condition& c : rule.conditions) {
    if (c.kind == rules::Condition::Kind::type_equal) {
      const Type a = rules::within(c.left, [&] { return parse_type(c.left.text); });
      const Type b = rules::within(c.right, [&] { return parse_type(c.right.text); });
      if (!same_type(a, b))
        throw AdsemError(ErrorKind::type,
                         fmt::format("the side condition '{}' is false: {} and {} are different "
                                     "types (linear-negation types are monomorphic)",
                                     c.text, type_text(a), type_text(b)),
                         c.pos);
      continue;
    }
    auto it = std::ranges::find_if(p.metas, [&](const auto& m) { return m.name == c.right.text; });
    if (it == p.metas.end())
      throw AdsemError(ErrorKind::parse,
                       fmt::format("side condition '{}': '{}' is not a metavariable of the "
                                   "left-hand side",
                                   c.text, c.right.text),
                       c.right.pos);
    if (!in_scope(it->binders, c.left.text)) {
      std::set<std::string> binders;
      binder_names(lhs, binders);
      throw AdsemError(
          ErrorKind::parse,
          binders.count(c.left.text)
              ? fmt::format("side condition '{}': '{}' is not an exponential binder around every "
                            "occurrence of {} on the left (a linear variable can never occur in "
                            "a metavariable's instance), so the condition says nothing",
                            c.text, c.left.text, it->name)
              : fmt::format("side condition '{}': '{}' is not bound around every occurrence of {} "
                            "on the left, so the condition says nothing",
                            c.text, c.left.text, it->name),
          c.left.pos);
    }
    std::erase_if(it->binders, [&](const auto& v) { return v.first == c.left.text; });
  }
}

} // namespace

Pattern compile_pattern(const rules::RuleDecl& rule) {
  Pattern p;
  p.name = rule.name;
  // reserved: the generators' binder names (z1, p2, y3, f4, …, x1.. the inputs) and the hole
  static const std::regex reserved("(z|p|q|y|f|h|w|k|a|e|x|dx)[0-9]+");
  rules::refuse_reserved_names(rule, reserved, "variables (a letter and digits, e.g. z1, y2, x1)");
  const Term lhs =
      rules::within(rule.lhs, [&] { return parse_term(rule.lhs.text, signature(), Mode::target); });
  const Term rhs =
      rules::within(rule.rhs, [&] { return parse_term(rule.rhs.text, signature(), Mode::target); });
  if (lhs->kind == Kind::var) rules::fail_lone_variable(rule);
  const std::vector<std::string> on_left = rules::check_free_names(
      rule, each_free_located(lhs, rule.lhs), each_free_located(rhs, rule.rhs));

  // the metavariables of the left, in declaration order, with their types
  std::set<std::string> binders;
  binder_names(lhs, binders);
  binder_names(rhs, binders);
  for (const rules::MetaDecl& d : rule.metas) {
    if (std::ranges::find(on_left, d.name) == on_left.end()) continue;
    rules::refuse_bound_metavariable(rule, binders, d.name);
    Metavariable m{d.name, rules::within(d.type, [&] { return parse_type(d.type.text); }), {}};
    p.gamma[m.name] = m.type;
    p.metas.push_back(std::move(m));
  }

  const Typed left = check_side(rule.lhs, lhs, p.gamma, false);
  const Typed right = check_side(rule.rhs, rhs, p.gamma, false);
  if (!same_type(left.type, right.type))
    rules::fail_sides_differ(rule, type_text(left.type), type_text(right.type));
  p.lhs = left.term;
  p.rhs = right.term;
  p.type = left.type;

  // scopes: the exponential binders around every occurrence on the (elaborated) left
  for (Metavariable& m : p.metas) {
    bool first = true;
    each_free(p.lhs, {}, [&](const Node& n, const VarScope& vis, const Path&) {
      if (n.name != m.name) return;
      m.binders = first ? vis : rules::intersect_scopes(m.binders, vis, same_type);
      first = false;
    });
  }
  apply_conditions(rule, p, p.lhs);

  // a source rule: both sides in Λ(F), so D of Table 3 applies to programs holding an instance
  p.source = std::ranges::none_of(p.metas, [](const auto& m) { return has_neg(m.type); });
  if (p.source) {
    try {
      TypeOptions o;
      o.source = true;
      (void)typecheck(p.lhs, p.gamma, signature(), std::nullopt, o);
      (void)typecheck(p.rhs, p.gamma, signature(), std::nullopt, o);
    } catch (const AdsemError&) {
      p.source = false;
    }
  }
  return p;
}

Term instantiate(const Term& t, const std::map<std::string, Term>& sigma) {
  if (t->kind == Kind::var) {
    const auto it = sigma.find(t->name);
    return it == sigma.end() ? t : it->second;
  }
  if (t->kids.empty()) return t;
  std::vector<Term> kids;
  for (const Term& k : t->kids)
    kids.push_back(instantiate(k, sigma));
  return rebuild(*t, std::move(kids));
}

std::vector<Occurrence> occurrences(const Term& t, const std::string& name, VarScope visible) {
  std::vector<Occurrence> out;
  each_free(t, std::move(visible), [&](const Node& n, const VarScope& vis, const Path& at) {
    if (n.name == name) out.push_back(Occurrence{at, vis});
  });
  return out;
}

Term replace_at(const Term& t, const Path& path, const Term& n) {
  if (path.empty()) return n;
  std::vector<Term> kids = t->kids;
  const auto i = static_cast<std::size_t>(path.front());
  kids.at(i) = replace_at(kids[i], Path(path.begin() + 1, path.end()), n);
  return rebuild(*t, std::move(kids));
}

Term zero_of(const Type& a) {
  switch (a->kind) {
  case TypeNode::Kind::real:
    return num(0);
  case TypeNode::Kind::product:
    return pair(zero_of(a->left), zero_of(a->right));
  case TypeNode::Kind::arrow:
    return lam(exp_binder("yzero", a->left), zero_of(a->right));
  case TypeNode::Kind::neg: // (zero) of Table 1: 0 is linear in every z
    return lam(lin_binder("azero"), zero(a->dim));
  }
  return num(0);
}

namespace {

// The term walk of the zero mutants (rule_pattern_kit.hpp).
struct TermOps {
  static const std::vector<Term>& children(const Term& t) { return t->kids; }
  static Term replace_at(const Term& t, const Path& path, const Term& n) {
    return linear_negation::replace_at(t, path, n);
  }
  static bool same(const Term& a, const Term& b) { return alpha_key(a) == alpha_key(b); }
  static std::string print(const Term& t) { return linear_negation::print(t); }
};

} // namespace

std::vector<rules::ZeroVariant> zero_variants(const Pattern& p) {
  std::vector<Path> places = rules::zero_places<TermOps, Path>(
      p.rhs, [](const Term&) { return true; }, [](const Term& t) { return size_of(t); });
  places.emplace_back(); // the whole right-hand side last
  std::vector<Term> zeros = {zero_of(real_type()), zero_of(p.type)};
  for (const Metavariable& m : p.metas)
    zeros.push_back(zero_of(m.type));
  return rules::first_fitting_zeros<TermOps>(p.rhs, places, zeros, [&](const Term& mutated) {
    return !type_error(mutated, p.gamma, p.type, signature());
  });
}

} // namespace adsem::linear_negation
