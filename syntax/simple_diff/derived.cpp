#include "syntax/simple_diff/derived.hpp"

namespace adsem::simple_diff {

Type iterated_product(const std::vector<Type>& ts) {
  if (ts.empty()) return unit_type();
  Type t = ts.front();
  for (std::size_t i = 1; i < ts.size(); ++i)
    t = product_type(t, ts[i]);
  return t;
}

Term zero_of(const Type& t, bool sugar) {
  Term z;
  switch (t->kind) {
  case TypeNode::Kind::real:
    z = mk::constant(0.0);
    break;
  case TypeNode::Kind::unit:
    z = mk::unit();
    break;
  case TypeNode::Kind::product:
    z = mk::pair_ann(zero_of(t->left), zero_of(t->right), t);
    break;
  }
  if (!sugar) return z;
  Sugar s;
  s.kind = Sugar::Kind::zero;
  s.type = t;
  return with_sugar(z, std::move(s));
}

Term plus_of(const Type& t, Term m, Term n, NameSupply& names, bool sugar) {
  Term sum;
  switch (t->kind) {
  case TypeNode::Kind::real:
    sum = mk::add(m, n);
    break;
  case TypeNode::Kind::unit: {
    // let x:unit = M in let y:unit = N in *   (strict in both)
    const std::string x = names.fresh("u"), y = names.fresh("u");
    sum = mk::let(x, unit_type(), m, mk::let(y, unit_type(), n, mk::unit()));
    break;
  }
  case TypeNode::Kind::product: {
    // let <x1:T, x2:U> = M in let <y1:T, y2:U> = N in <x1 +_T y1, x2 +_U y2>_{T,U}
    const std::string x1 = names.fresh("a"), x2 = names.fresh("a");
    const std::string y1 = names.fresh("b"), y2 = names.fresh("b");
    Term body = mk::pair_ann(plus_of(t->left, mk::var(x1), mk::var(y1), names),
                             plus_of(t->right, mk::var(x2), mk::var(y2), names), t);
    Term inner = tuple_let({{y1, t->left}, {y2, t->right}}, n, body, names);
    sum = tuple_let({{x1, t->left}, {x2, t->right}}, m, inner, names);
    break;
  }
  }
  if (!sugar) return sum;
  Sugar s;
  s.kind = Sugar::Kind::plus;
  s.type = t;
  s.parts = {std::move(m), std::move(n)};
  return with_sugar(sum, std::move(s));
}

namespace {
Term tuple_let_core(const std::vector<Sugar::Binder>& xs, std::size_t count, Term m, Term n,
                    NameSupply& names, std::optional<SourcePos> pos) {
  if (count == 0) return mk::let(names.fresh("u"), unit_type(), m, n, pos);
  if (count == 1) return mk::let(xs[0].name, xs[0].type, m, n, pos);
  std::vector<Type> prefix_types;
  for (std::size_t i = 0; i + 1 < count; ++i)
    prefix_types.push_back(xs[i].type);
  const Type prefix = iterated_product(prefix_types);
  const Type last = xs[count - 1].type;
  const Type whole = product_type(prefix, last);
  const std::string z = names.fresh("z");
  Term rest = mk::let(xs[count - 1].name, last, mk::snd_ann(mk::var(z), whole), n);
  Term unpack =
      tuple_let_core(xs, count - 1, mk::fst_ann(mk::var(z), whole), rest, names, std::nullopt);
  return mk::let(z, whole, m, unpack, pos);
}
} // namespace

Term tuple_let(const std::vector<Sugar::Binder>& xs, Term m, Term n, NameSupply& names, bool sugar,
               std::optional<SourcePos> pos) {
  Term core = tuple_let_core(xs, xs.size(), m, n, names, pos);
  if (!sugar || xs.size() < 2) return core;
  Sugar s;
  s.kind = Sugar::Kind::tuple_let;
  s.binders = xs;
  s.parts = {std::move(m), std::move(n)};
  return with_sugar(core, std::move(s));
}

Term grad_of(Term point, std::string x, Type t, Term body, bool sugar,
             std::optional<SourcePos> pos) {
  Term core = mk::rd(mk::constant(1.0), point, x, t, body, pos);
  if (!sugar) return core;
  Sugar s;
  s.kind = Sugar::Kind::grad;
  s.binders = {{std::move(x), std::move(t)}};
  s.parts = {std::move(point), std::move(body)};
  return with_sugar(core, std::move(s));
}

Term fd_of(Term tangent, Type u, Term point, std::string x, Type t, Term body, NameSupply& names,
           bool sugar, std::optional<SourcePos> pos) {
  const std::string y = names.fresh("y");
  Term inner = mk::rd(mk::var(y), point, x, t, body);
  Term core = mk::rd(tangent, zero_of(u), y, u, inner, pos);
  if (!sugar) return core;
  Sugar s;
  s.kind = Sugar::Kind::fd;
  s.type = std::move(u);
  s.binders = {{std::move(x), std::move(t)}};
  s.parts = {std::move(tangent), std::move(point), std::move(body)};
  return with_sugar(core, std::move(s));
}

} // namespace adsem::simple_diff

namespace adsem::simple_diff {
namespace {
// M^(n) when it differs from M, else null: a subterm without an unlimited letrec is its own
// approximant and is shared, not copied (nodes are immutable; measured: copying every node was 3%
// of an adequacy campaign). Null for "unchanged" spares the walk a reference count taken and
// dropped at every node of a term that mostly has no letrec (measured: 2.6% of
// simple-diff/approximation, which builds M^(n) and M^(n+1)).
Term changed_approximant(const Node& m, int n) {
  Term a = m.a ? changed_approximant(*m.a, n) : nullptr;
  Term b = m.b ? changed_approximant(*m.b, n) : nullptr;
  Term c = m.c ? changed_approximant(*m.c, n) : nullptr;
  const bool limits = m.kind == Kind::letrec && !m.limit();
  if (!limits && !a && !b && !c) return nullptr;
  auto copy = make_shared_node<Node>(m);
  if (a) copy->a = std::move(a);
  if (b) copy->b = std::move(b);
  if (c) copy->c = std::move(c);
  if (limits) {
    NodeExtra& extra = copy->edit_extra();
    extra.limit = n;
    extra.sugar.reset(); // printed as letrec[n], not as the let f(x) = ... sugar
  }
  return copy;
}
} // namespace

Term approximant(const Term& m, int n) {
  if (!m) return m;
  Term changed = changed_approximant(*m, n);
  return changed ? changed : m;
}
} // namespace adsem::simple_diff
