#include "properties/linear_negation/rule_pattern.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "semantics/linear_negation/primitives.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation {

namespace {

bool binds_kid(const Node& n, std::size_t i) {
  return i == 0 && (n.tag == Tag::lam || n.tag == Tag::let || n.tag == Tag::let_pair);
}

// Calls f(node, visible, path) on every free variable occurrence. `visible` holds the exponential
// variables in scope; `bound` every bound name (linear binders too: seed 002 Table 1, a linear
// variable z is only usable inside Γ ⊢_z, never by an exponential term).
template <class F>
void free_vars(const Term& t, VarScope& visible, std::vector<std::string>& bound, Path& path,
               F&& f) {
  if (t->tag == Tag::var) {
    if (std::ranges::find(bound, t->name) == bound.end()) f(*t, visible, path);
    return;
  }
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    std::size_t pushed_visible = 0, pushed_bound = 0;
    if (binds_kid(*t, i)) {
      for (const Binder* b : {&t->x, &t->y}) {
        if (b->name.empty() || (b == &t->y && t->tag != Tag::let_pair)) continue;
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

VarScope intersect(const VarScope& a, const VarScope& b) {
  VarScope out;
  for (const auto& [x, t] : a)
    if (std::ranges::any_of(b,
                            [&](const auto& v) { return v.first == x && same_type(v.second, t); }))
      out.emplace_back(x, t);
  return out;
}

[[noreturn]] void fail_at(const rules::Fragment& side, const Node& n, ErrorKind kind,
                          const std::string& message) {
  throw AdsemError(kind, message,
                   n.pos ? rules::locate(side, *n.pos) : std::optional<SourcePos>(side.pos));
}

void check_free_names(const rules::RuleDecl& rule, const Term& lhs, const Term& rhs) {
  each_free(lhs, {}, [&](const Node& n, const VarScope&, const Path&) {
    if (!rules::find_meta(rule, n.name))
      fail_at(rule.lhs, n, ErrorKind::parse,
              fmt::format("'{}' is neither bound on the left-hand side nor a declared "
                          "metavariable (declare it: meta {} : T)",
                          n.name, n.name));
  });
  const auto on_left = [&](const std::string& x) {
    bool found = false;
    each_free(lhs, {},
              [&](const Node& n, const VarScope&, const Path&) { found = found || n.name == x; });
    return found;
  };
  each_free(rhs, {}, [&](const Node& n, const VarScope&, const Path&) {
    if (on_left(n.name)) return;
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

// Type-checks one side in Γ = the metavariables, located in the rule file. A metavariable in a
// position that must be linear gets a hint: metavariables are exponential terms.
Typed check_side(const rules::Fragment& side, const Term& t, const Context& gamma, bool source) {
  return rules::within(side, [&] {
    try {
      TypeOptions o;
      o.source = source;
      return type_check(t, gamma, signature(), std::nullopt, o);
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
  for (const rules::Fragment* side : {&rule.lhs, &rule.rhs})
    for (const std::string& id : rules::identifiers(side->text))
      if (std::regex_match(id, reserved))
        throw AdsemError(ErrorKind::parse,
                         fmt::format("the name '{}' is reserved for generated variables (a letter "
                                     "and digits, e.g. z1, y2, x1); rename it",
                                     id),
                         side->pos);
  const Term lhs =
      rules::within(rule.lhs, [&] { return parse_term(rule.lhs.text, signature(), Mode::target); });
  const Term rhs =
      rules::within(rule.rhs, [&] { return parse_term(rule.rhs.text, signature(), Mode::target); });
  if (lhs->tag == Tag::var)
    throw AdsemError(ErrorKind::parse,
                     "the left-hand side is a lone variable: the rule would rewrite every term",
                     rule.lhs.pos);
  check_free_names(rule, lhs, rhs);

  // the metavariables of the left, in declaration order, with their types
  std::set<std::string> binders;
  binder_names(lhs, binders);
  binder_names(rhs, binders);
  for (const rules::MetaDecl& d : rule.metas) {
    bool occurs = false;
    each_free(lhs, {}, [&](const Node& n, const VarScope&, const Path&) {
      occurs = occurs || n.name == d.name;
    });
    if (!occurs) continue;
    if (binders.count(d.name))
      throw AdsemError(
          ErrorKind::parse,
          fmt::format("'{}' is a metavariable and cannot also be a bound variable", d.name),
          rule.pos);
    Metavariable m{d.name, rules::within(d.type, [&] { return parse_type(d.type.text); }), {}};
    p.gamma[m.name] = m.type;
    p.metas.push_back(std::move(m));
  }

  const Typed left = check_side(rule.lhs, lhs, p.gamma, false);
  const Typed right = check_side(rule.rhs, rhs, p.gamma, false);
  if (!same_type(left.type, right.type))
    throw AdsemError(ErrorKind::type,
                     fmt::format("ill-typed rule '{}': the left-hand side has type {} but the "
                                 "right-hand side has type {}",
                                 rule.name, type_text(left.type), type_text(right.type)),
                     rule.rhs.pos);
  p.lhs = left.term;
  p.rhs = right.term;
  p.type = left.type;

  // scopes: the exponential binders around every occurrence on the (elaborated) left
  for (Metavariable& m : p.metas) {
    bool first = true;
    each_free(p.lhs, {}, [&](const Node& n, const VarScope& vis, const Path&) {
      if (n.name != m.name) return;
      m.binders = first ? vis : intersect(m.binders, vis);
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
      (void)type_check(p.lhs, p.gamma, signature(), std::nullopt, o);
      (void)type_check(p.rhs, p.gamma, signature(), std::nullopt, o);
    } catch (const AdsemError&) {
      p.source = false;
    }
  }
  return p;
}

Term instantiate(const Term& t, const std::map<std::string, Term>& sigma) {
  if (t->tag == Tag::var) {
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

std::vector<rules::ZeroVariant> zero_variants(const Pattern& p) {
  struct Candidate {
    long size;
    Path path;
  };
  std::vector<Candidate> candidates;
  Path path;
  const auto walk = [&](auto&& self, const Term& t) -> void {
    if (!path.empty()) candidates.push_back({size_of(t), path});
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      path.push_back(static_cast<int>(i));
      self(self, t->kids[i]);
      path.pop_back();
    }
  };
  walk(walk, p.rhs);
  std::ranges::stable_sort(candidates,
                           [](const Candidate& a, const Candidate& b) { return a.size > b.size; });
  candidates.push_back({size_of(p.rhs), {}}); // the whole right-hand side last
  std::vector<Type> zero_types = {real_type(), p.type};
  for (const Metavariable& m : p.metas)
    zero_types.push_back(m.type);
  std::vector<rules::ZeroVariant> out;
  for (const Candidate& c : candidates) {
    Term replaced = p.rhs;
    for (const int i : c.path)
      replaced = replaced->kids.at(static_cast<std::size_t>(i));
    for (const Type& a : zero_types) {
      const Term z = zero_of(a);
      if (alpha_key(z) == alpha_key(replaced)) break; // already zero
      const Term mutated = replace_at(p.rhs, c.path, z);
      if (type_error(mutated, p.gamma, p.type, signature())) continue; // not of type a there
      out.push_back({print(replaced), print(mutated), print(z)});
      break;
    }
  }
  return out;
}

} // namespace adsem::linear_negation
