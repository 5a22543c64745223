#include "syntax/pullback/substitution.hpp"

#include <atomic>
#include <cctype>

#include "syntax/core/depth_guard.hpp"

namespace adsem::pullback {

std::string fresh_name(const std::string& base, const std::set<std::string>& avoid) {
  static std::atomic<long> counter{0};
  std::string stem = base;
  while (!stem.empty() &&
         (std::isdigit(static_cast<unsigned char>(stem.back())) || stem.back() == '_'))
    stem.pop_back();
  if (stem.empty()) stem = "v";
  for (;;) {
    std::string name = stem + "_" + std::to_string(++counter);
    if (!avoid.count(name)) return name;
  }
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
  Substituter(std::string x, Term s) : x_(std::move(x)), s_(std::move(s)), fv_(free_vars(s_)) {}

  Term go(const Term& t) {
    const DepthGuard guard(depth_);
    if (t->kind == Kind::var) return t->name == x_ ? s_ : t;
    if (t->kids.empty()) return t;
    std::vector<Term> kids;
    std::string name = t->name;
    bool changed = false;
    for (std::size_t i = 0; i < t->kids.size(); ++i) {
      Term k = t->kids[i];
      if (binds(t->kind) && i == bound_child(t->kind)) {
        if (t->name == x_) { // shadowed
          kids.push_back(k);
          continue;
        }
        if (fv_.count(t->name)) { // would capture: α-rename the binder
          std::set<std::string> avoid = fv_;
          const auto inner = free_vars(k);
          avoid.insert(inner.begin(), inner.end());
          avoid.insert(x_);
          name = fresh_name(t->name, avoid);
          k = rename_var(k, t->name, name);
          changed = true;
        }
      }
      Term r = go(k);
      changed = changed || r != t->kids[i];
      kids.push_back(std::move(r));
    }
    return changed ? rebuild(t, name, std::move(kids)) : t;
  }

private:
  std::string x_;
  Term s_;
  std::set<std::string> fv_;
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
