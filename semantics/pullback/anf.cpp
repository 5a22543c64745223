#include "semantics/pullback/anf.hpp"

#include <string_view>
#include <utility>

#include "syntax/core/deep_walk.hpp"
#include "syntax/pullback/nesting.hpp"
#include "syntax/pullback/substitution.hpp"
#include "syntax/pullback/type_with.hpp"

namespace adsem::pullback {

namespace {

struct Binding {
  std::string name;
  Type type;
  Term bound;
};
using Bindings = std::vector<Binding>;

Term with_type_hint(const Term& e, const Type& hint) {
  if (e->kind == Kind::zero && !e->type && !is_any(hint)) return zero(hint, e->pos);
  return e;
}

class AnfConversion {
public:
  explicit AnfConversion(const AnfOptions& options) : options_(options) {}

  Term normal_form(const Term& p, const Type& hint) {
    if (leaves_default_stack(depth_.depth))
      return on_large_stack([&] { return normal_form(p, hint); });
    const DepthGuard guard(depth_);
    Bindings b;
    const Term e = elem(p, hint, b);
    // ANF(P) = let B; z = E in z, except that a final atom already bound last is reused.
    if (e->kind == Kind::var && !b.empty() && b.back().name == e->name)
      return close(std::move(b), e);
    const std::string z = fresh("z");
    const Type ty = type_of(e);
    b.push_back({z, is_any(ty) ? hint : ty, e});
    Term last = var(z, b.back().type);
    return close(std::move(b), std::move(last));
  }

private:
  // [perf] The bindings are moved into the lets (a copy of each name, type and term per let).
  static Term close(Bindings&& b, Term body) {
    for (auto it = b.rbegin(); it != b.rend(); ++it)
      body = let(std::move(it->name), std::move(it->type), std::move(it->bound), std::move(body));
    return body;
  }
  std::string fresh(const std::string& base) { return fresh_name(base); }

  // [perf] The let binders renamed so far, innermost last: flattening let x = E in N renames x
  // to a fresh x' in N. Substituting x'/x into N at every let rebuilt the path to each occurrence
  // of x, quadratic in a let series (seed 000 §3.2 L205-219); the renaming is applied where
  // the walk meets an occurrence instead. An entry with no `to` is a binder of the same name that
  // hides the renaming in its scope. The terms, their types and the fresh names drawn are those
  // of the substitutions: a let whose substitution would α-rename a binder takes that path.
  struct Renaming {
    std::string from;
    Term to; // var(x', ρ), or nullptr: hidden
  };
  std::vector<Renaming> renamed_;

  // The renaming of the variable x in scope, or nullptr.
  const Term* renaming_of(std::string_view x) const {
    for (auto it = renamed_.rbegin(); it != renamed_.rend(); ++it)
      if (it->from == x) return it->to ? &it->to : nullptr;
    return nullptr;
  }
  // A scope for one binder: x hidden, or renamed to `to`.
  class Scope {
  public:
    Scope(std::vector<Renaming>& renamed, const std::string& x, Term to = nullptr)
        : renamed_(renamed) {
      renamed_.push_back({x, std::move(to)});
    }
    ~Scope() { renamed_.pop_back(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    std::vector<Renaming>& renamed_;
  };
  // An atom with its root renamed (the projections keep their nodes' other fields, as a
  // substitution's rebuilt path does).
  // [perf] An atom whose root no renaming in scope names is itself, answered from its free name
  // (the node's facts: its root) without walking the path: a curried function's inputs are
  // paths p.2.2…2.1 over one spine, as long as the input's position (the wide sum's n inputs
  // walked Θ(n²) levels).
  Term renamed_atom(const Term& p) const {
    if (renamed_.empty()) return p;
    if (p->kind != Kind::var) {
      const NodeFacts& f = facts(p);
      if (!f.many && f.free.size() == 1 && !renaming_of(f.free.front())) return p;
    }
    if (p->kind == Kind::var) {
      const Term* to = renaming_of(p->name);
      return to ? *to : p;
    }
    const Term kid = renamed_atom(p->kids[0]);
    if (kid == p->kids[0]) return p;
    auto n = remake(*p);
    n->kids.push_back(kid);
    return n;
  }
  // type_of(p) of the term with the renamings applied.
  Type type_here(const Term& p) {
    if (renamed_.empty()) return type_of(p);
    if (p->kind == Kind::var) {
      const Term* to = renaming_of(p->name);
      return to ? (*to)->type : p->type;
    }
    return type_with(p, [&](const Term& k) {
      // lam and let bind their name in the child type_of asks about
      if ((p->kind == Kind::lam && &k == &p->kids[0]) ||
          (p->kind == Kind::let && &k == &p->kids[1])) {
        const Scope hidden(renamed_, p->name);
        return type_here(k);
      }
      return type_here(k);
    });
  }
  // The term with the renamings in scope applied, as the substitutions in turn (outer first).
  Term applied(Term t) const {
    for (std::size_t i = 0; i < renamed_.size(); ++i) {
      const Renaming& r = renamed_[i];
      bool innermost = true;
      for (std::size_t j = i + 1; j < renamed_.size(); ++j)
        innermost = innermost && renamed_[j].from != r.from;
      if (innermost && r.to) t = substitute(t, r.from, r.to);
    }
    return t;
  }

  Term atomize(const Term& p, const Type& hint, Bindings& b) {
    if (is_atom(p) && !options_.bind_atoms) return renamed_atom(p);
    const Term e = elem(p, hint, b);
    if (is_atom(e) && !options_.bind_atoms) return e;
    Type ty = type_of(e);
    if (is_any(ty)) ty = hint;
    if (is_any(ty))
      throw AdsemError(ErrorKind::type, "A-normalisation: cannot type a 'zero' (annotate it)",
                       p->pos);
    const std::string z = fresh("z");
    b.push_back({z, ty, with_type_hint(e, ty)});
    return var(z, ty);
  }

  // `own` is type_of(p) when the caller has it: a let's body has the let's type, and asking
  // type_of again at each let of a series walks the rest of it, quadratic in the series.
  Term elem(const Term& p, const Type& hint0, Bindings& b, Type own = nullptr) {
    if (leaves_default_stack(depth_.depth))
      return on_large_stack([&] { return elem(p, hint0, b, std::move(own)); });
    const DepthGuard guard(depth_);
    // [perf] p's type, else the hint from the context: asked only by the cases that use it
    // (type_of walks p's subterms and builds their product types: asked at every node, it was
    // most of A-normalisation's work on small terms).
    const auto type_hint = [&] {
      if (!own) own = type_here(p);
      return is_any(own) ? hint0 : own;
    };
    switch (p->kind) {
    case Kind::zero:
      return with_type_hint(p, type_hint());
    case Kind::var:
      return renamed_atom(p);
    case Kind::proj:
      if (is_atom(p) && !options_.bind_atoms) return renamed_atom(p);
      return proj(p->index, atomize(p->kids[0], nullptr, b));
    case Kind::sum: {
      const Type hint = type_hint();
      Term acc = atomize(p->kids[0], hint, b);
      for (std::size_t i = 1; i < p->kids.size(); ++i) {
        const Term next = atomize(p->kids[i], hint, b);
        const Term s = make_node(Node{.kind = Kind::sum, .kids = {acc, next}});
        if (i + 1 == p->kids.size()) return s;
        const std::string z = fresh("z");
        b.push_back({z, hint, s});
        acc = var(z, hint);
      }
      return acc;
    }
    case Kind::lam: {
      const Type hint = type_hint();
      const Scope hidden(renamed_, p->name);
      return lam(p->name, p->type, normal_form(p->kids[0], is_arrow(hint) ? hint->right : nullptr));
    }
    case Kind::app: {
      const Term f = atomize(p->kids[0], nullptr, b);
      const Type ft = type_of(f);
      const Term a = atomize(p->kids[1], is_arrow(ft) ? ft->left : nullptr, b);
      return app(f, a);
    }
    case Kind::pair: {
      const Type hint = type_hint();
      const Term a1 = atomize(p->kids[0], is_prod(hint) ? hint->left : nullptr, b);
      const Term a2 = atomize(p->kids[1], is_prod(hint) ? hint->right : nullptr, b);
      return pair(a1, a2);
    }
    case Kind::num:
    case Kind::covec:
      return p;
    case Kind::prim:
      return prim(p->name, p->type, atomize(p->kids[0], p->type->left, b));
    case Kind::jac:
      return jac(p->name, p->type, atomize(p->kids[0], p->type->left, b));
    case Kind::dualmap: {
      const Term a = atomize(p->kids[1], nullptr, b);
      const Type at = type_of(a);
      const Scope hidden(renamed_, p->name);
      return dualmap(p->name, p->type, normal_form(p->kids[0], is_dual(at) ? at->left : nullptr),
                     a);
    }
    case Kind::pullback: {
      const Term a = atomize(p->kids[1], nullptr, b);
      const Type at = type_of(a);
      const Scope hidden(renamed_, p->name);
      return pullback(p->name, p->type, normal_form(p->kids[0], is_arrow(at) ? at->left : nullptr),
                      a);
    }
    case Kind::let: {
      // flatten: B1 ++ [x' = E1] ++ B2', E2'  (x renamed to a fresh x')
      const Term e1 = elem(p->kids[0], p->type, b);
      const std::string x2 = fresh(p->name);
      b.push_back({x2, p->type, with_type_hint(e1, p->type)});
      Term x2_var = var(x2, p->type);
      const Type hint = type_hint();
      if (binds_no(p->kids[1], x2)) { // the substitution renames no binder
        const Scope renamed(renamed_, p->name, std::move(x2_var));
        return elem(p->kids[1], hint, b, own);
      }
      Term body = [&] {
        const Scope hidden(renamed_, p->name); // the outer renamings stop at this binder
        return applied(p->kids[1]);
      }();
      body = substitute(body, p->name, x2_var);
      std::vector<Renaming> outer = std::exchange(renamed_, {}); // applied to body
      Term r = elem(body, hint, b, own);
      renamed_ = std::move(outer);
      return r;
    }
    }
    return p;
  }

  AnfOptions options_;
  DepthBudget depth_{max_term_nesting, 0, ErrorKind::eval};
};

bool is_atom_or(const Term& t) {
  return is_atom(t);
}

} // namespace

Term anf(const Term& p, const AnfOptions& options) {
  AnfConversion a(options);
  return a.normal_form(p, type_of(p));
}

bool is_elementary(const Term& t) {
  switch (t->kind) {
  case Kind::zero:
  case Kind::num:
  case Kind::covec:
    return true;
  case Kind::var:
  case Kind::proj:
    return is_atom(t);
  case Kind::sum:
    return t->kids.size() == 2 && is_atom_or(t->kids[0]) && is_atom_or(t->kids[1]);
  case Kind::lam:
    return is_let_series(t->kids[0]);
  case Kind::app:
  case Kind::pair:
    return is_atom(t->kids[0]) && is_atom(t->kids[1]);
  case Kind::prim:
  case Kind::jac:
    return is_atom(t->kids[0]);
  case Kind::dualmap:
  case Kind::pullback:
    return is_let_series(t->kids[0]) && is_atom(t->kids[1]);
  case Kind::let:
    return false;
  }
  return false;
}

bool is_let_series(const Term& t) {
  const Term* at = &t;
  while ((*at)->kind == Kind::let) {
    if (!is_elementary((*at)->kids[0])) return false;
    const Term& body = (*at)->kids[1];
    if (body->kind == Kind::var) return body->name == (*at)->name;
    at = &body;
  }
  return false;
}

bool is_split_body(const Term& t, const std::string& y) {
  return t->kind == Kind::pair && t->kids[0]->kind == Kind::var && same_name(t->kids[0]->name, y) &&
         is_elementary(t->kids[1]);
}

bool is_final(const Term& body, const std::string& y) {
  return is_let_series(body) || is_elementary(body) || is_split_body(body, y);
}

std::size_t let_length(const Term& l) {
  std::size_t n = 0;
  for (const Term* at = &l; (*at)->kind == Kind::let; at = &(*at)->kids[1])
    ++n;
  return n;
}

} // namespace adsem::pullback
