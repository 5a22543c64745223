#include "properties/pullback/rule_match.hpp"

#include <algorithm>
#include <set>

#include "properties/core/term_view.hpp"
#include "syntax/pullback/substitution.hpp"

namespace adsem::pullback {

namespace {

class Matcher {
public:
  explicit Matcher(const Pattern& p) : p_(p) {}

  bool go(const Term& pat, const Term& t) {
    if (pat->kind == Kind::var && p_.gamma.contains(pat->name)) return bind(pat->name, t);
    if (pat->kind != t->kind || pat->kids.size() != t->kids.size()) return false;
    switch (pat->kind) {
    case Kind::var:
      return pat->name == t->name && same_type(pat->type, t->type);
    case Kind::proj:
      if (pat->index != t->index) return false;
      break;
    case Kind::num:
      return pat->value == t->value;
    case Kind::covec:
      return pat->vec == t->vec && same_type(pat->type, t->type);
    case Kind::zero:
      return same_type(pat->type, t->type);
    case Kind::prim:
    case Kind::jac:
      if (pat->name != t->name) return false;
      break;
    case Kind::lam:
    case Kind::dualmap:
    case Kind::pullback:
    case Kind::let:
      if (!same_type(pat->type, t->type)) return false;
      break;
    default:
      break;
    }
    const int scoped = TermView::bound_child(pat->kind);
    for (std::size_t i = 0; i < pat->kids.size(); ++i) {
      Term kid = t->kids[i];
      if (static_cast<int>(i) == scoped && pat->name != t->name) {
        // α-rename the term's binder to the pattern's, unless the pattern's name is free there
        if (occurs_free(pat->name, kid)) return false;
        kid = substitute(kid, t->name, var(pat->name, t->type));
      }
      if (!go(pat->kids[i], kid)) return false;
    }
    return true;
  }

  Substitution take() { return std::move(sigma_); }

private:
  bool bind(const std::string& m, const Term& t) {
    if (const auto it = sigma_.find(m); it != sigma_.end()) return alpha_equal(it->second, t);
    if (!same_type(type_of(t), p_.gamma.at(m))) return false;
    sigma_.emplace(m, t);
    return true;
  }

  const Pattern& p_;
  Substitution sigma_;
};

// Every free variable of σ(M) that is a binder name of the rule is one M may mention (bound
// around all its occurrences on the left, not excluded by `x # M`).
bool captures_nothing(const Pattern& p, const Substitution& sigma) {
  std::vector<std::string> bound;
  adsem::rules::binder_names(TermView{}, p.lhs, bound);
  adsem::rules::binder_names(TermView{}, p.rhs, bound);
  if (bound.empty()) return true;
  for (const Metavariable& m : p.metas) {
    const auto it = sigma.find(m.name);
    if (it == sigma.end()) continue;
    for (const std::string& x : free_vars(it->second))
      if (std::ranges::find(bound, x) != bound.end() &&
          std::ranges::none_of(m.binders, [&](const auto& b) { return b.first == x; }))
        return false;
  }
  return true;
}

} // namespace

std::optional<Substitution> match_pattern(const Pattern& p, const Term& t) {
  Matcher m(p);
  if (!m.go(p.lhs, t)) return std::nullopt;
  Substitution sigma = m.take();
  if (!captures_nothing(p, sigma)) return std::nullopt;
  return sigma;
}

} // namespace adsem::pullback
