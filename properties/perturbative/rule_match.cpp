#include "properties/perturbative/rule_match.hpp"

#include <algorithm>
#include <set>

#include "semantics/perturbative/substitution.hpp"

namespace adsem::perturbative {

namespace {

// m with every binder named in `to` (and the variables it binds) renamed.
Term renamed(const Term& m, const std::map<std::string, std::string>& to);
Term renamed(const Simple& s, const std::map<std::string, std::string>& to) {
  const auto name = [&](const std::string& x) {
    const auto it = to.find(x);
    return it == to.end() ? x : it->second;
  };
  switch (s.kind) {
  case Kind::var:
    return var(name(s.name), s.type);
  case Kind::lam:
    return lam(name(s.name), s.binder_type, renamed(*s.operand, to));
  case Kind::app:
    return app(renamed(*s.operand, to), renamed(s.argument, to));
  case Kind::push:
  case Kind::inj:
  case Kind::proj:
    return with_operand(s, renamed(*s.operand, to));
  case Kind::numeral:
  case Kind::primitive:
    break;
  }
  return single(make_shared_node<const Simple>(s));
}
Term renamed(const Term& m, const std::map<std::string, std::string>& to) {
  Term out = zero(m.type);
  for (const SimpleP& s : m.items)
    out = sum(out, renamed(*s, to));
  return out;
}

// Thrown when a bound term mentions a variable of the redex's context that has the name of a
// binder of the pattern: the match is retried with the pattern's binders renamed.
struct NameClash {};

class Matcher {
public:
  Matcher(const Pattern& p, const std::set<std::string>& binders) : p_(p), binders_(binders) {}

  bool simple(const Simple& pat, const Simple& t) {
    if (pat.kind == Kind::var && is_meta(pat.name)) return bind(pat.name, single(share(t)));
    // (a node some properties build with only its form and type: diamond-semantics' s N)
    if (pat.kind != t.kind || (pat.operand && !t.operand)) return false;
    switch (pat.kind) {
    case Kind::var:
      return bound_here(pat.name, t.name);
    case Kind::lam: {
      if (!same_type(pat.binder_type, t.binder_type)) return false;
      env_.push_back({pat.name, t.name, t.binder_type});
      const bool ok = simple(*pat.operand, *t.operand);
      env_.pop_back();
      return ok;
    }
    case Kind::app:
      return simple(*pat.operand, *t.operand) && bag(pat.argument, t.argument);
    case Kind::inj:
      if (!same_type(pat.type, t.type)) return false;
      [[fallthrough]];
    case Kind::proj:
      if (pat.index != t.index) return false;
      [[fallthrough]];
    case Kind::push:
      return simple(*pat.operand, *t.operand);
    case Kind::numeral:
      return pat.value == t.value;
    case Kind::primitive:
      return pat.name == t.name;
    }
    return false;
  }

  bool bag(const Term& pat, const Term& t) {
    if (!same_type(pat.type, t.type)) return false;
    if (pat.items.size() == 1 && pat.items.front()->kind == Kind::var &&
        is_meta(pat.items.front()->name))
      return bind(pat.items.front()->name, t);
    if (pat.items.size() != t.items.size()) return false;
    std::vector<bool> used(t.items.size(), false);
    return summands(pat, t, 0, used);
  }

  Match result(Term rhs) { return Match{std::move(sigma_), std::move(rhs)}; }

private:
  static SimpleP share(const Simple& t) { return make_shared_node<const Simple>(t); }

  // Pattern summand i and on, each to an unused summand of t (backtracking).
  bool summands(const Term& pat, const Term& t, std::size_t i, std::vector<bool>& used) {
    if (i == pat.items.size()) return true;
    for (std::size_t j = 0; j < t.items.size(); ++j) {
      if (used[j]) continue;
      const auto saved = sigma_;
      used[j] = true;
      if (simple(*pat.items[i], *t.items[j]) && summands(pat, t, i + 1, used)) return true;
      used[j] = false;
      sigma_ = saved;
    }
    return false;
  }

  bool is_meta(const std::string& name) const {
    return std::ranges::any_of(p_.metas, [&](const Metavariable& m) { return m.name == name; });
  }

  // The innermost binder pair whose pattern side (or term side) is `name`.
  std::optional<std::size_t> by_pattern(const std::string& name) const {
    for (std::size_t i = env_.size(); i-- > 0;)
      if (env_[i].pattern == name) return i;
    return std::nullopt;
  }
  std::optional<std::size_t> by_term(const std::string& name) const {
    for (std::size_t i = env_.size(); i-- > 0;)
      if (env_[i].term == name) return i;
    return std::nullopt;
  }
  bool bound_here(const std::string& pattern_name, const std::string& term_name) const {
    const auto i = by_pattern(pattern_name);
    return i && i == by_term(term_name);
  }

  // M := u, u rewritten to the pattern's binder names.
  bool bind(const std::string& name, const Term& u) {
    const Metavariable& m =
        *std::ranges::find_if(p_.metas, [&](const Metavariable& v) { return v.name == name; });
    if (!same_type(m.type, u.type)) return false;
    Term term = u;
    if (!binders_.empty()) {
      struct Rename {
        std::string from, to;
        Type type;
      };
      std::vector<Rename> renames;
      for (const std::string& v : free_variables(u)) {
        const auto j = by_term(v);
        if (!j) {
          if (binders_.contains(v)) throw NameClash{};
          continue;
        }
        const std::string& x = env_[*j].pattern;
        const bool visible =
            by_pattern(x) == j &&
            std::ranges::any_of(m.binders, [&](const auto& b) { return b.first == x; });
        if (!visible) return false; // `x # M`, or a binder M is not under
        if (v != x) renames.push_back({v, x, env_[*j].type});
      }
      // two passes through names no term has (the lexer has no primes), so that swapped names
      // do not collide
      for (std::size_t k = 0; k < renames.size(); ++k)
        term = substitute(term, renames[k].from, var("'" + std::to_string(k), renames[k].type));
      for (std::size_t k = 0; k < renames.size(); ++k)
        term = substitute(term, "'" + std::to_string(k), var(renames[k].to, renames[k].type));
    }
    const auto [it, fresh] = sigma_.emplace(name, term);
    return fresh || canonical_key(it->second) == canonical_key(term);
  }

  const Pattern& p_;
  const std::set<std::string>& binders_;
  struct Binder {
    std::string pattern, term; // the pattern's binder and the term's at the same place
    Type type;
  };
  std::vector<Binder> env_;
  std::map<std::string, Term> sigma_;
};

} // namespace

std::optional<Match> match(const Pattern& p, const Simple& s) {
  std::vector<std::string> names;
  binders_of(p.lhs, names);
  binders_of(p.rhs, names);
  const std::set<std::string> binders(names.begin(), names.end());
  try {
    Matcher m(p, binders);
    if (!m.simple(*p.lhs.items.front(), s)) return std::nullopt;
    return m.result(p.rhs);
  } catch (const NameClash&) {
  }
  // rename the pattern's binders away from the redex's free variables and the pattern's names
  std::set<std::string> avoid;
  free_variables(s, avoid);
  avoid.insert(p.names.begin(), p.names.end());
  std::map<std::string, std::string> to;
  for (const std::string& b : binders) {
    const std::string fresh = fresh_name(b, avoid);
    avoid.insert(fresh);
    to.emplace(b, fresh);
  }
  Pattern q = p;
  q.lhs = renamed(p.lhs, to);
  q.rhs = renamed(p.rhs, to);
  for (Metavariable& v : q.metas)
    for (auto& b : v.binders)
      b.first = to.at(b.first);
  std::set<std::string> fresh_binders;
  for (const auto& [from, name] : to)
    fresh_binders.insert(name);
  Matcher m(q, fresh_binders);
  if (!m.simple(*q.lhs.items.front(), s)) return std::nullopt;
  return m.result(q.rhs);
}

} // namespace adsem::perturbative
