#include "syntax/pullback/substitution.hpp"

#include <atomic>
#include <cctype>
#include <optional>

#include "syntax/core/depth_guard.hpp"

namespace adsem::pullback {

std::string fresh_name_where(const std::string& base,
                             const std::function<bool(const std::string&)>& taken) {
  static std::atomic<long> counter{0};
  std::string stem = base;
  while (!stem.empty() &&
         (std::isdigit(static_cast<unsigned char>(stem.back())) || stem.back() == '_'))
    stem.pop_back();
  if (stem.empty()) stem = "v";
  for (;;) {
    std::string name = stem + "_" + std::to_string(++counter);
    if (!taken(name)) return name;
  }
}

std::string fresh_name(const std::string& base, const std::set<std::string>& avoid) {
  return fresh_name_where(base, [&](const std::string& name) { return avoid.count(name) > 0; });
}

std::string fresh_name_free_in(const std::string& base, std::initializer_list<const Term*> terms) {
  return fresh_name_where(base, [&](const std::string& name) {
    for (const Term* t : terms)
      if (occurs_free(name, *t)) return true;
    return false;
  });
}

namespace {

bool binds(Kind k) {
  return k == Kind::lam || k == Kind::dualmap || k == Kind::pullback || k == Kind::let;
}
std::size_t bound_child(Kind k) {
  return k == Kind::let ? 1 : 0;
}

Term rebuild(const Term& t, std::string name, std::vector<Term> kids) {
  Node n = *t;
  n.name = std::move(name);
  n.kids = std::move(kids);
  return std::make_shared<const Node>(std::move(n));
}

Term rename_var(const Term& t, const std::string& from, const std::string& to);

class Substituter {
public:
  Substituter(std::string x, Term s) : x_(std::move(x)), s_(std::move(s)) {}

  Term go(const Term& t) {
    const DepthGuard guard(depth_);
    if (t->kind == Kind::var) return t->name == x_ ? s_ : t;
    if (t->kids.empty()) return t;
    // The children are copied only from the first one that changes (most subterms do not), so an
    // unchanged subterm costs no allocation and is returned shared.
    std::vector<Term> kids;
    bool copying = false;
    std::string name;
    bool renamed = false;
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      const Term* k = &t->kids[i];
      Term renamed_kid;
      if (binds(t->kind) && i == bound_child(t->kind)) {
        if (t->name == x_) { // shadowed
          if (copying) kids.push_back(*k);
          continue;
        }
        if (fv().count(t->name)) { // would capture: α-rename the binder
          std::set<std::string> avoid = fv();
          const auto inner = free_vars(*k);
          avoid.insert(inner.begin(), inner.end());
          avoid.insert(x_);
          name = fresh_name(t->name, avoid);
          renamed_kid = rename_var(*k, t->name, name);
          k = &renamed_kid;
          renamed = true;
        }
      }
      Term r = go(*k);
      if (!copying && (renamed || r != t->kids[i])) {
        copying = true;
        kids.reserve(t->kids.size());
        kids.assign(t->kids.begin(), t->kids.begin() + static_cast<std::ptrdiff_t>(i));
      }
      if (copying) kids.push_back(std::move(r));
    }
    if (!copying) return t;
    return rebuild(t, renamed ? name : t->name, std::move(kids));
  }

private:
  // FV(s), computed at the first binder met (most substitutions meet none).
  const std::set<std::string>& fv() {
    if (!fv_) fv_ = free_vars(s_);
    return *fv_;
  }
  std::string x_;
  Term s_;
  std::optional<std::set<std::string>> fv_;
  DepthBudget depth_{DepthBudget::default_limit, 0, ErrorKind::eval};
};

Term rename_var(const Term& t, const std::string& from, const std::string& to) {
  // The type of the renamed variable is the type of its occurrences.
  struct Finder {
    static Type type_of_occurrence(const Term& t, const std::string& x) {
      if (t->kind == Kind::var) return t->name == x ? t->type : nullptr;
      for (std::size_t i = 0; i < t->kids.size(); ++i) {
        if (binds(t->kind) && i == bound_child(t->kind) && t->name == x) continue;
        if (Type ty = type_of_occurrence(t->kids[i], x)) return ty;
      }
      return nullptr;
    }
  };
  const Type ty = Finder::type_of_occurrence(t, from);
  if (!ty) return t;
  Substituter s(from, var(to, ty));
  return s.go(t);
}

} // namespace

Term substitute(const Term& t, const std::string& x, const Term& s) {
  Substituter sub(x, s);
  return sub.go(t);
}

} // namespace adsem::pullback
