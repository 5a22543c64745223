#include "semantics/pullback/translation.hpp"

#include <atomic>

#include "semantics/core/primitives.hpp"

namespace adsem::pullback::ld {

DTerm make(Node n) {
  return make_shared_node<const Node>(std::move(n));
}
DTerm dvar(const std::string& x) {
  return make({.kind = Node::Kind::var, .name = x});
}
DTerm dlam(const std::string& x, DTerm body) {
  return make({.kind = Node::Kind::lam, .name = x, .kids = {std::move(body)}});
}
DTerm dapp(DTerm f, DTerm a) {
  return make({.kind = Node::Kind::app, .kids = {std::move(f), std::move(a)}});
}
DTerm dproj(int i, DTerm s) {
  return make({.kind = Node::Kind::proj, .index = i, .kids = {std::move(s)}});
}

namespace {

// The i-th flattened component of v : σ (Euclidean), as projections.
DTerm component(const DTerm& v, const Type& sigma, std::size_t i) {
  if (!is_prod(sigma)) return v;
  const std::size_t left = dim(sigma->left);
  return i < left ? component(dproj(1, v), sigma->left, i)
                  : component(dproj(2, v), sigma->right, i - left);
}

std::atomic<int> counter{0};
std::string fresh(const char* base) {
  return std::string(base) + "#" + std::to_string(++counter); // '#' never occurs in source names
}

} // namespace

DTerm translate(const Term& t) {
  using K = Node::Kind;
  switch (t->kind) {
  case Kind::var:
    return dvar(t->name);
  case Kind::lam:
    return dlam(t->name, translate(t->kids[0]));
  case Kind::app:
    return dapp(translate(t->kids[0]), translate(t->kids[1]));
  case Kind::proj:
    return dproj(t->index, translate(t->kids[0]));
  case Kind::pair:
    return make({.kind = K::pair, .kids = {translate(t->kids[0]), translate(t->kids[1])}});
  case Kind::num:
    return make({.kind = K::num, .value = t->value});
  case Kind::prim:
    return make(
        {.kind = K::prim, .name = t->name, .type = t->type, .kids = {translate(t->kids[0])}});
  case Kind::jac: // 𝒥f̲·S ↦ D f̲·S_t
    return make(
        {.kind = K::dprim, .name = t->name, .type = t->type, .kids = {translate(t->kids[0])}});
  case Kind::sum: {
    std::vector<DTerm> kids;
    for (const Term& k : t->kids)
      kids.push_back(translate(k));
    return make({.kind = K::sum, .kids = kids});
  }
  case Kind::zero:
    return make({.kind = K::zero, .type = t->type});
  case Kind::covec: { // [r₁…rₙ]* ↦ λv. Σᵢ (rᵢ × –)(πᵢ(v))
    const std::string v = fresh("v");
    const Type mul_sig = arrow(real_power(2), real_type());
    std::vector<DTerm> terms;
    const std::vector<double> entries = t->vec.dense();
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const DTerm r = make({.kind = K::num, .value = entries[i]});
      terms.push_back(
          make({.kind = K::prim,
                .name = "mul",
                .type = mul_sig,
                .kids = {make({.kind = K::pair, .kids = {r, component(dvar(v), t->type, i)}})}}));
    }
    return dlam(v, terms.size() == 1 ? terms.front() : make({.kind = K::sum, .kids = terms}));
  }
  case Kind::dualmap: { // (λy.S₁)*·S₂ ↦ λv. (S₂)_t ((λy.(S₁)_t) v)
    const std::string v = fresh("v");
    return dlam(v,
                dapp(translate(t->kids[1]), dapp(dlam(t->name, translate(t->kids[0])), dvar(v))));
  }
  case Kind::pullback: { // (Ω λy.P)·S ↦ λx v. S_t ((λy.P_t) x) ((D(λy.P_t)·v) x)
    const std::string x = fresh("x"), v = fresh("v");
    const DTerm f = dlam(t->name, translate(t->kids[0]));
    const DTerm s = translate(t->kids[1]);
    const DTerm d = make({.kind = K::dapp, .kids = {f, dvar(v)}});
    return dlam(x, dlam(v, dapp(dapp(s, dapp(f, dvar(x))), dapp(d, dvar(x)))));
  }
  case Kind::let: // let x = M in N ↦ (λx.N_t) M_t  [ID]
    return dapp(dlam(t->name, translate(t->kids[1])), translate(t->kids[0]));
  }
  return make({.kind = K::zero, .type = t->type});
}

std::size_t size_of(const DTerm& t) {
  std::size_t n = 1;
  for (const DTerm& k : t->kids)
    n += size_of(k);
  return n;
}

model::Value<double> denote(const DTerm& t, const Env<double>& env, const DenoteContext& context) {
  using V = model::Value<double>;
  using D = model::Dual<double>;
  using K = Node::Kind;
  const model::NodeVisit visit(context.limits);
  switch (t->kind) {
  case K::var:
    if (const V* v = model::lookup<double>(env, t->name)) return *v;
    throw AdsemError(ErrorKind::eval, "𝓛_D: unbound variable " + t->name);
  case K::lam:
    return V::function([body = t->kids[0], x = t->name, env, context](const V& a) {
      return denote(body, extend<double>(env, x, a), context);
    });
  case K::app:
    return denote(t->kids[0], env, context)(denote(t->kids[1], env, context));
  case K::proj:
    return denote(t->kids[0], env, context).item(static_cast<std::size_t>(t->index - 1));
  case K::pair:
    return V::pair(denote(t->kids[0], env, context), denote(t->kids[1], env, context));
  case K::num:
    return V(D(t->value));
  case K::prim: { // ⟦f̲(s)⟧ = f ∘ ⟦s⟧
    const std::vector<D> ys =
        primitives().at(t->name).apply<D>(model::flatten(denote(t->kids[0], env, context)));
    std::size_t next = 0;
    return ground<double>(t->type->right, std::span<const D>(ys), next);
  }
  case K::dprim: { // ⟦D f̲·s⟧ = λy x. D[f]⟨⟦s⟧y, x⟩  (L820-829)
    const V s = denote(t->kids[0], env, context);
    const V f = V::function([name = t->name, cod = t->type->right](const V& x) {
      const std::vector<D> ys = primitives().at(name).apply<D>(model::flatten(x));
      std::size_t next = 0;
      return ground<double>(cod, std::span<const D>(ys), next);
    });
    return V::function([f, s, context](const V& x) {
      return model::directional_derivative(f, x, s, context.diff);
    });
  }
  case K::dapp: { // ⟦D s·t⟧ = a ↦ D[⟦s⟧]⟨⟦t⟧, a⟩
    const V s = denote(t->kids[0], env, context);
    const V u = denote(t->kids[1], env, context);
    return V::function([s, u, context](const V& a) {
      return model::directional_derivative(s, a, u, context.diff);
    });
  }
  case K::sum: {
    V out = denote(t->kids[0], env, context);
    for (std::size_t i = 1; i < t->kids.size(); ++i)
      out = model::sum(out, denote(t->kids[i], env, context));
    return out;
  }
  case K::zero:
    return model::zero<double>(model_type(t->type));
  }
  throw AdsemError(ErrorKind::eval, "𝓛_D: unknown node");
}

} // namespace adsem::pullback::ld
