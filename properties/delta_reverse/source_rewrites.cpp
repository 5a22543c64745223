#include "properties/delta_reverse/source_rewrites.hpp"

#include <optional>
#include <vector>

#include "properties/delta_reverse/rule_pattern.hpp"

namespace adsem::delta_reverse {

namespace {

using TK = TypeNode::Kind;

Term with_kids(const Term& t, std::vector<Term> kids) {
  return TermView::rebuild(t, std::move(kids));
}

void rename_binder(Node& n, std::size_t i, const std::string& y) {
  if (n.kind == Kind::case_ && i == 2)
    n.name2 = y;
  else
    n.name = y;
}

Term inline_all(const Term& t, FreshNames& fresh) {
  std::vector<Term> kids;
  for (const Term& k : t->kids)
    kids.push_back(inline_all(k, fresh));
  if (t->kind == Kind::let) return substitute(kids[1], t->name, kids[0], fresh);
  return kids.empty() ? t : with_kids(t, std::move(kids));
}

// The children call-by-value evaluates whenever t is evaluated, before t's own step.
bool strict_position(const Term& t, std::size_t i) {
  switch (t->kind) {
  case Kind::app:
  case Kind::pair:
    return true;
  case Kind::fst:
  case Kind::snd:
  case Kind::inl:
  case Kind::inr:
  case Kind::case_:
  case Kind::let:
    return i == 0;
  default:
    return false;
  }
}

// Floats the lets in t's strict positions above t (t's children are already floated).
Term float_here(const Term& t, FreshNames& fresh) {
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const Term& k = t->kids[i];
    if (!strict_position(t, i) || k->kind != Kind::let) continue;
    // x renamed apart: t's other children may mention a variable named x of an outer scope
    const std::string x = fresh(k->name);
    std::vector<Term> kids = t->kids;
    kids[i] = substitute(k->kids[1], k->name, var(x), fresh);
    return let(x, k->kids[0], float_here(with_kids(t, std::move(kids)), fresh));
  }
  return t;
}

Term float_all(const Term& t, FreshNames& fresh) {
  if (t->kids.empty()) return t;
  std::vector<Term> kids;
  for (const Term& k : t->kids)
    kids.push_back(float_all(k, fresh));
  return float_here(with_kids(t, std::move(kids)), fresh);
}

// A λ is already its own η-expansion; pairs, injections and literals never have an arrow type.
bool may_be_function(Kind k) {
  return k == Kind::var || k == Kind::prim || k == Kind::app || k == Kind::let ||
         k == Kind::case_ || k == Kind::fst || k == Kind::snd;
}

// The context child i of t sees, from the context t sees (App. A.1's typing of binders).
Context inner_context(const Term& t, std::size_t i, const Context& gamma) {
  Context inner = gamma;
  if (t->kind == Kind::lam) inner.emplace_back(t->name, t->type);
  if (t->kind == Kind::let && i == 1)
    inner.emplace_back(t->name, typecheck(t->kids[0], gamma).type);
  if (t->kind == Kind::case_ && i > 0) {
    const Type sum = typecheck(t->kids[0], gamma).type;
    inner.emplace_back(i == 1 ? t->name : t->name2, i == 1 ? sum->left : sum->right);
  }
  return inner;
}

Term eta_all(const Term& t, const Context& gamma, FreshNames& fresh) {
  std::vector<Term> kids;
  for (std::size_t i = 0; i < t->kids.size(); ++i)
    kids.push_back(eta_all(t->kids[i], inner_context(t, i, gamma), fresh));
  const Term e = kids.empty() ? t : with_kids(t, std::move(kids));
  if (!may_be_function(t->kind)) return e;
  const Type a = typecheck(t, gamma).type;
  if (a->kind != TK::arrow) return e;
  const std::string y = fresh("y");
  return lam(y, a->left, app(e, var(y)));
}

// t with its k-th let in pre-order planted (k counts down the lets passed); nullopt when t has
// fewer lets.
std::optional<Term> plant_at(const Term& t, const Context& gamma, std::size_t& k) {
  if (t->kind == Kind::let) {
    if (k == 0) {
      const Type a = typecheck(t->kids[0], gamma).type;
      return case_of(inl(a, t->kids[0]), t->name, t->kids[1], t->name, t->kids[1]);
    }
    --k;
  }
  for (std::size_t i = 0; i < t->kids.size(); ++i)
    if (std::optional<Term> planted = plant_at(t->kids[i], inner_context(t, i, gamma), k)) {
      std::vector<Term> kids = t->kids;
      kids[i] = std::move(*planted);
      return with_kids(t, std::move(kids));
    }
  return std::nullopt;
}

} // namespace

const std::string* binder_of(const Node& n, std::size_t i) {
  switch (n.kind) {
  case Kind::lam:
    return &n.name;
  case Kind::let:
  case Kind::bind:
    return i == 1 && !n.name.empty() ? &n.name : nullptr;
  case Kind::case_:
    return i == 1 ? &n.name : i == 2 ? &n.name2 : nullptr;
  default:
    return nullptr;
  }
}

bool free_in(const std::string& x, const Term& t) {
  if (t->kind == Kind::var) return t->name == x;
  for (std::size_t i = 0; i < t->kids.size(); ++i) {
    const std::string* y = binder_of(*t, i);
    if ((y == nullptr || *y != x) && free_in(x, t->kids[i])) return true;
  }
  return false;
}

Term substitute(const Term& t, const std::string& x, const Term& s, FreshNames& fresh) {
  if (t->kind == Kind::var) return t->name == x ? s : t;
  if (t->kids.empty()) return t;
  Node copy = *t;
  for (std::size_t i = 0; i < copy.kids.size(); ++i) {
    Term& k = copy.kids[i];
    const std::string* b = binder_of(*t, i);
    if (b != nullptr && *b == x) continue; // x is shadowed here
    if (b != nullptr && free_in(*b, s) && free_in(x, k)) {
      // the binder would capture a free variable of s: rename it apart first
      const std::string y = fresh(*b);
      k = substitute(k, *b, var(y), fresh);
      rename_binder(copy, i, y);
    }
    k = substitute(k, x, s, fresh);
  }
  return make_shared_node<const Node>(std::move(copy));
}

Term inline_lets(const Term& t) {
  std::vector<std::string> names;
  collect_names(t, names);
  FreshNames fresh(std::move(names));
  return inline_all(t, fresh);
}

Term float_lets(const Term& t) {
  std::vector<std::string> names;
  collect_names(t, names);
  FreshNames fresh(std::move(names));
  return float_all(t, fresh);
}

Term eta_expand(const Term& t, const Context& gamma) {
  std::vector<std::string> names;
  collect_names(t, names);
  for (const auto& [x, type] : gamma)
    names.push_back(x);
  FreshNames fresh(std::move(names));
  return eta_all(t, gamma, fresh);
}

Term known_case(const Term& t) {
  if (t->kids.empty()) return t;
  std::vector<Term> kids;
  for (const Term& k : t->kids)
    kids.push_back(known_case(k));
  if (t->kind == Kind::case_ && kids[0]->kind == Kind::inl)
    return let(t->name, kids[0]->kids[0], kids[1]);
  if (t->kind == Kind::case_ && kids[0]->kind == Kind::inr)
    return let(t->name2, kids[0]->kids[0], kids[2]);
  return with_kids(t, std::move(kids));
}

std::size_t let_count(const Term& t) {
  std::size_t n = t->kind == Kind::let ? 1 : 0;
  for (const Term& k : t->kids)
    n += let_count(k);
  return n;
}

Term plant_known_case(const Term& t, std::size_t k, const Context& gamma) {
  return plant_at(t, gamma, k).value_or(t);
}

} // namespace adsem::delta_reverse
