#include "properties/dual_numbers/rule_match.hpp"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "syntax/core/diagnostic.hpp"

namespace adsem::dual_numbers {

namespace {

void free_names(const Term& t, std::vector<std::string>& bound, std::set<std::string>& out) {
  if (!t) return;
  if (t->kind == Kind::var) {
    if (std::ranges::find(bound, t->name) == bound.end()) out.insert(t->name);
    return;
  }
  if (t->kind == Kind::lam) bound.push_back(t->name);
  free_names(t->a, bound, out);
  if (t->kind == Kind::lam) bound.pop_back();
  free_names(t->b, bound, out);
}
std::set<std::string> free_names(const Term& t) {
  std::vector<std::string> bound;
  std::set<std::string> out;
  free_names(t, bound, out);
  return out;
}

class Matcher {
public:
  explicit Matcher(const Pattern& p) : p_(p) {}

  std::optional<RuleMatch> run(const Node& t) {
    if (!go(p_.lhs, t, nullptr)) return std::nullopt;
    return std::move(out_);
  }

private:
  struct Bound {
    std::string pattern, term;
    Type type;
  };

  bool metavariable(const Metavariable& m, const Term& t) {
    TypeContext gamma;
    for (const Bound& b : scope_) {
      gamma.emplace_back(b.term, b.type);
      const bool allowed =
          std::ranges::any_of(m.binders, [&](const auto& v) { return v.first == b.pattern; });
      if (!allowed && free_names(t).count(b.term)) return false; // `x # M`, or out of its scope
    }
    try {
      if (!same_type(typecheck(t, gamma), m.type)) return false;
    } catch (const AdsemError&) {
      return false;
    }
    const auto [it, fresh] = out_.sigma.emplace(m.name, t);
    return fresh || same_term(it->second, t);
  }

  // t is the node of `handle` (null at the redex itself, which the strategy hands over as a node;
  // a left-hand side is never a lone metavariable, so the root needs no handle).
  bool go(const Term& p, const Node& t, const Term* handle) {
    if (p->kind == Kind::var) {
      for (auto b = scope_.rbegin(); b != scope_.rend(); ++b)
        if (b->pattern == p->name) return t.kind == Kind::var && t.name == b->term;
      const auto m =
          std::ranges::find_if(p_.metas, [&](const auto& x) { return x.name == p->name; });
      return m != p_.metas.end() && handle && metavariable(*m, *handle);
    }
    if (p->kind != t.kind || p->op != t.op || p->index != t.index) return false;
    switch (p->kind) {
    case Kind::constant:
      return p->value == t.value;
    case Kind::lam: {
      if (!same_type(p->binder_type, t.binder_type)) return false;
      const auto [it, fresh] = out_.binders.emplace(p->name, t.name);
      if (!fresh && it->second != t.name) return false;
      scope_.push_back({p->name, t.name, t.binder_type});
      const bool ok = go(p->a, *t.a, &t.a);
      scope_.pop_back();
      return ok;
    }
    default:
      return (!p->a || go(p->a, *t.a, &t.a)) && (!p->b || go(p->b, *t.b, &t.b));
    }
  }

  const Pattern& p_;
  std::vector<Bound> scope_;
  RuleMatch out_;
};

class Builder {
public:
  explicit Builder(const RuleMatch& m) : m_(m) {
    for (const auto& [meta, t] : m.sigma)
      for (const std::string& x : free_names(t))
        taken_.insert(x);
    for (const auto& [from, to] : m.binders)
      taken_.insert(to);
  }

  Term go(const Term& r) {
    if (!r) return r;
    if (r->kind == Kind::var) {
      for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
        if (it->first == r->name) return var(it->second);
      if (const auto it = m_.sigma.find(r->name); it != m_.sigma.end()) return it->second;
      return r;
    }
    if (r->kind == Kind::lam) {
      const std::string x = binder(r->name);
      scope_.emplace_back(r->name, x);
      const Term body = go(r->a);
      scope_.pop_back();
      return lam(x, r->binder_type, body);
    }
    return r->a ? with_children(*r, go(r->a), go(r->b)) : r;
  }

private:
  std::string binder(const std::string& name) const {
    if (const auto it = m_.binders.find(name); it != m_.binders.end()) return it->second;
    std::string x = name;
    while (taken_.count(x))
      x += "'";
    return x;
  }

  const RuleMatch& m_;
  std::set<std::string> taken_;
  std::vector<std::pair<std::string, std::string>> scope_; // pattern binder, term binder
};

} // namespace

std::optional<RuleMatch> match_rule(const Pattern& p, const Node& t) {
  return Matcher(p).run(t);
}

Term instantiate_rhs(const Pattern& p, const RuleMatch& m) {
  return Builder(m).go(p.rhs);
}

} // namespace adsem::dual_numbers
