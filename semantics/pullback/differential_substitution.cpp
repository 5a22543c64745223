#include "semantics/pullback/differential_substitution.hpp"

#include <optional>
#include <vector>

namespace adsem::pullback::ld {

namespace {

using K = Node::Kind;
using Partial = std::optional<DTerm>; // nullopt: the term 0 (x not free, D s·0 = 0)

DTerm zero_of(const Type& t) {
  return make({.kind = K::zero, .type = t});
}
DTerm along(DTerm s, DTerm t) { // D s·t
  return make({.kind = K::dapp, .kids = {std::move(s), std::move(t)}});
}
Partial sum_of(std::vector<DTerm> items) {
  if (items.empty()) return std::nullopt;
  if (items.size() == 1) return items.front();
  return make({.kind = K::sum, .kids = std::move(items)});
}

// The binders the cases below add around translated subterms ('∂' never occurs in source names
// nor in the translation's fresh names, so t's free variable and P's are never captured).
const std::string w_name = "w∂", a_name = "a∂", u_name = "u∂";

struct Differentiate {
  const std::string& x;
  const DTerm& t;

  // ∂(s U)/∂x·t = (∂s/∂x·t) U + (D s·(∂U/∂x·t)) U
  static Partial application(const DTerm& s, const Partial& ds, const DTerm& u, const Partial& du) {
    std::vector<DTerm> items;
    if (ds) items.push_back(dapp(*ds, u));
    if (du) items.push_back(dapp(along(s, *du), u));
    return sum_of(std::move(items));
  }

  Partial operator()(const Term& p) const {
    if (!occurs_free(x, p)) return std::nullopt;
    switch (p->kind) {
    case Kind::var: // ∂x/∂x·t = t
      return t;
    case Kind::lam: { // ∂(λy.s)/∂x·t = λy.(∂s/∂x·t)
      const Partial d = (*this)(p->kids[0]);
      if (!d) return std::nullopt;
      return dlam(p->name, *d);
    }
    case Kind::app:
      return application(translate(p->kids[0]), (*this)(p->kids[0]), translate(p->kids[1]),
                         (*this)(p->kids[1]));
    case Kind::proj: // ∂π_i(s)/∂x·t = π_i(∂s/∂x·t)
      return dproj(p->index, *(*this)(p->kids[0]));
    case Kind::pair: { // ∂⟨s₁,s₂⟩/∂x·t = ⟨∂s₁/∂x·t, ∂s₂/∂x·t⟩
      const Partial d1 = (*this)(p->kids[0]), d2 = (*this)(p->kids[1]);
      return make({.kind = K::pair,
                   .kids = {d1 ? *d1 : zero_of(type_of(p->kids[0])),
                            d2 ? *d2 : zero_of(type_of(p->kids[1]))}});
    }
    case Kind::prim: // ∂f̲(s)/∂x·t = (D f̲·(∂s/∂x·t)) s
      return dapp(
          make(
              {.kind = K::dprim, .name = p->name, .type = p->type, .kids = {*(*this)(p->kids[0])}}),
          translate(p->kids[0]));
    case Kind::jac: // ∂(D f̲·s)/∂x·t = D f̲·(∂s/∂x·t)
      return make(
          {.kind = K::dprim, .name = p->name, .type = p->type, .kids = {*(*this)(p->kids[0])}});
    case Kind::sum: { // ∂(s+U)/∂x·t = ∂s/∂x·t + ∂U/∂x·t
      std::vector<DTerm> items;
      for (const Term& k : p->kids)
        if (Partial d = (*this)(k)) items.push_back(std::move(*d));
      return sum_of(std::move(items));
    }
    case Kind::dualmap: { // (λz.S₁)*·S₂ translates to λw. (S₂)_t ((λz.(S₁)_t) w)
      const Term f = lam(p->name, p->type, p->kids[0]);
      const Partial df = (*this)(f);
      const DTerm w = dvar(w_name);
      const DTerm inner = dapp(translate(f), w);
      const Partial body = application(translate(p->kids[1]), (*this)(p->kids[1]), inner,
                                       df ? Partial(dapp(*df, w)) : std::nullopt);
      if (!body) return std::nullopt;
      return dlam(w_name, *body);
    }
    case Kind::pullback: { // (Ω λz.P)·S translates to λa u. S_t (F a) ((D F·u) a), F = λz.P_t
      const Term f = lam(p->name, p->type, p->kids[0]);
      const DTerm tf = translate(f);
      const Partial df = (*this)(f);
      const DTerm a = dvar(a_name), u = dvar(u_name);
      const DTerm point = dapp(tf, a), tangent = dapp(along(tf, u), a);
      const DTerm s = translate(p->kids[1]);
      const Partial ds = (*this)(p->kids[1]);
      // ∂(F a) = (∂F) a and ∂((D F·u) a) = (D (∂F)·u) a: a and u are not x
      const Partial d_point = df ? Partial(dapp(*df, a)) : std::nullopt;
      const Partial d_tangent = df ? Partial(dapp(along(*df, u), a)) : std::nullopt;
      const Partial body =
          application(dapp(s, point), application(s, ds, point, d_point), tangent, d_tangent);
      if (!body) return std::nullopt;
      return dlam(a_name, dlam(u_name, *body));
    }
    case Kind::let: { // let z = M in N translates to (λz.N_t) M_t
      const Term f = lam(p->name, p->type, p->kids[1]);
      return application(translate(f), (*this)(f), translate(p->kids[0]), (*this)(p->kids[0]));
    }
    case Kind::num:
    case Kind::covec:
    case Kind::zero:
      return std::nullopt; // closed
    }
    return std::nullopt;
  }
};

} // namespace

DTerm differential_substitution(const Term& p, const std::string& x, const DTerm& t) {
  const Partial d = Differentiate{x, t}(p);
  return d ? *d : zero_of(type_of(p));
}

} // namespace adsem::pullback::ld
