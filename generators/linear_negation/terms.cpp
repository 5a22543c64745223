#include "generators/linear_negation/terms.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <string_view>

#include "generators/core/uniform.hpp"
#include "semantics/linear_negation/primitives.hpp"
#include "semantics/linear_negation/program.hpp"
#include "syntax/core/inline_vector.hpp"
#include "syntax/linear_negation/nesting.hpp"
#include "syntax/linear_negation/printer.hpp"

namespace adsem::linear_negation::gen {

namespace {

using Scope = std::vector<std::pair<std::string, Type>>;

// A uniform choice in [lo, hi) whatever the size, shrinking towards lo, the simplest alternative
// (generators/core/uniform.hpp). A draw makes tens of choices, nearly all in [0, hi) or [1, hi) for
// a small hi, whose generators are made once, or a numeral's [-200, 201), made once here: making
// one per choice cost about a tenth of the choice.
int choose(int lo, int hi) {
  if (lo == -200 && hi == 201) {
    static const adsem::gen::Uniform numerals(-200, 201);
    return numerals();
  }
  return adsem::gen::uniform_in(lo, hi);
}

const Type& R() { // the one real type, not a count taken per leaf
  static const Type r = real_type();
  return r;
}
Type RR() {
  return arrow_type(R(), R());
}

double numeral() {
  static const std::vector<double> nice = {1, 0.5, -1, 2, 0};
  if (choose(0, 3) == 0) return choose(-200, 201) / 100.0;
  return nice[static_cast<std::size_t>(choose(0, 5))];
}

// The names of g of type a, innermost first, each once: pointers into g, read before g grows
// (a scope holds a few names; copying them was a string and an allocation at every leaf).
using NameRefs = InlineVector<const std::string*, 16>;
NameRefs of_type(const Scope& g, const Type& a) {
  NameRefs out;
  for (auto it = g.rbegin(); it != g.rend(); ++it)
    if (same_type(it->second, a) &&
        std::none_of(out.begin(), out.end(), [&](const std::string* x) { return *x == it->first; }))
      out.push_back(&it->first);
  return out;
}

struct Builder {
  int counter = 0;
  bool first_order = false;
  bool mix = false;  // leaves may use variables of other types (user rules); off: unchanged draws
  int uses_left = 6; // how many such uses a term may still get: a leaf inside a use is a leaf
                     // again, so without a budget shrinking (choices towards 0) never stops
  // A subterm with a binder used twice (x·x near a boundary): its binders occur twice.
  bool binders_repeated = false;
  // A binder's name: a base of letters and a number no other binder of the term has, so the
  // Builder's binders are pairwise distinct and none is a source's input x1..xn (real() binds no
  // base "x"), but for those of a subterm used twice.
  std::string fresh(const std::string& base) { return base + std::to_string(++counter); }
  // t with its binders renamed apart: with_unique_binders, whose check of every binder would
  // give t back unless a subterm with binders was used twice (tests/linear_negation check the
  // drawn terms' binders).
  Term unique(const Term& t, const Context& gamma = {}) const {
    return binders_repeated ? with_unique_binders(t, gamma) : t;
  }

  Term leaf(Scope& g) {
    if (mix) {
      std::vector<std::pair<std::string, Type>> others;
      for (const auto& v : g)
        if (!is_real(v.second)) others.push_back(v);
      if (!others.empty() && uses_left > 0 && choose(0, 3) == 0) {
        --uses_left;
        const auto& v =
            others[static_cast<std::size_t>(choose(0, static_cast<int>(others.size())))];
        return use(var(v.first), v.second, g, 0);
      }
    }
    const auto vars = of_type(g, R());
    if (!vars.empty() && choose(0, 4) != 0)
      return var(*vars[static_cast<std::size_t>(choose(0, static_cast<int>(vars.size())))]);
    return num(numeral());
  }

  // A positive-ish argument for a partial primitive, near its boundary now and then.
  Term near_boundary(Scope& g, int depth) {
    // the choices' generators, made once (rc::Gen is immutable; a draw is the same either way)
    static const rc::Gen<double> squares_lifted_by = rc::gen::element(0.001, 0.25, 1.0);
    static const rc::Gen<double> sigmas_lifted_by = rc::gen::element(1e-3, 0.5);
    const Term t = real(g, depth - 1);
    switch (choose(0, 4)) {
    case 3: // unguarded: sometimes outside the domain (a counted discard, never a verdict)
      return t;
    case 0: // exp of a bounded argument: no overflow (spec §10.1 "exp only with depth <= 2")
      return prim("exp", {prim("sin", {t})});
    case 1:
      binders_repeated = binders_repeated || t->binders > 0;
      return add(mul(t, t), num(*squares_lifted_by));
    default:
      return add(prim("sigma", {t}), num(*sigmas_lifted_by));
    }
  }

  // log, sqrt or div at an argument near the boundary of their domain (spec §5.6)
  Term partial(Scope& g, int depth) {
    const int which = choose(0, 3);
    const Term a = near_boundary(g, depth);
    if (which == 0) return prim("log", {a});
    if (which == 1) return prim("sqrt", {a});
    return prim("div", {real(g, depth - 1), a});
  }

  Term real(Scope& g, int depth) {
    if (depth <= 0) return leaf(g);
    if (!first_order && choose(0, 12) == 0) return partial(g, depth);
    const int kinds = first_order ? 8 : 13;
    int kind = choose(0, first_order ? kinds : kinds + 1);
    if (kind == kinds) kind = 8; // pair destructors twice as often (they are rare in a term)
    switch (kind) {
    case 0:
      return leaf(g);
    case 1: {
      // its generator made once: made at each draw, it copied the six names
      static const rc::Gen<std::string> unary =
          rc::gen::elementOf(std::vector<std::string>{"sin", "cos", "tanh", "sigma", "exp", "neg"});
      const std::string f = *unary;
      return prim(f, {real(g, f == "exp" ? std::min(depth - 1, 1) : depth - 1)});
    }
    case 2:
      return add(real(g, depth - 1), real(g, depth - 1));
    case 3:
      return mul(real(g, depth - 1), real(g, depth - 1));
    case 4:
      return prim("sub", {real(g, depth - 1), real(g, depth - 1)});
    case 5:
    case 6: { // let x = u in t, biased to use x several times (sharing, spec §10.1)
      const Term u = real(g, depth - 1);
      const std::string x = fresh("z");
      g.emplace_back(x, R());
      Term body = real(g, depth - 1);
      if (choose(0, 2) == 0) body = mul(var(x), add(body, var(x)));
      g.pop_back();
      return let(exp_binder(x, R()), body, u);
    }
    case 7:
      return partial(g, depth);
    case 8: { // let (p, q) = (u, v) in t
      const Term u = pair(real(g, depth - 1), real(g, depth - 1));
      const std::string p = fresh("p"), q = fresh("q");
      g.emplace_back(p, R());
      g.emplace_back(q, R());
      const Term body = real(g, depth - 1);
      g.pop_back();
      g.pop_back();
      return let_pair(exp_binder(p, R()), exp_binder(q, R()), body, u);
    }
    case 9: { // β-redex (\x:!R. t) u
      const std::string x = fresh("y");
      const Term u = real(g, depth - 1);
      g.emplace_back(x, R());
      const Term body = real(g, depth - 1);
      g.pop_back();
      return app(lam(exp_binder(x, R()), body), u);
    }
    case 10: { // a shared function: let f = \y:!R. b in … f … f …
      const std::string f = fresh("f"), y = fresh("y");
      g.emplace_back(y, R());
      const Term fb = real(g, depth - 1);
      g.pop_back();
      g.emplace_back(f, RR());
      const Term body = app(var(f), app(var(f), real(g, depth - 1)));
      g.pop_back();
      return let(exp_binder(f, RR()), body, lam(exp_binder(y, R()), fb));
    }
    case 11: { // higher-order argument: (\h:!(R->R). h (h t)) (\y:!R. b)
      const std::string h = fresh("h"), y = fresh("y");
      const Term arg = real(g, depth - 1);
      g.emplace_back(y, R());
      const Term fb = real(g, depth - 1);
      g.pop_back();
      const Term twice = lam(exp_binder(h, RR()), app(var(h), app(var(h), arg)));
      return app(twice, lam(exp_binder(y, R()), fb));
    }
    default: { // Church numeral iteration c_k f t (spec §10.1 library combinators)
      const int k = choose(1, 4);
      const std::string f = fresh("f"), y = fresh("y"), w = fresh("w");
      Term body = var(y);
      for (int i = 0; i < k; ++i)
        body = app(var(f), body);
      const Term church = lam(exp_binder(f, RR()), lam(exp_binder(y, R()), body));
      g.emplace_back(w, R());
      const Term fb = real(g, depth - 1);
      g.pop_back();
      return app(app(church, lam(exp_binder(w, R()), fb)), real(g, depth - 1));
    }
    }
  }

  // A real-typed use of t : a (user rules: a hole or a context variable of any type).
  Term use(const Term& t, const Type& a, Scope& g, int depth) {
    if (is_real(a)) return t;
    if (is_product(a)) {
      const std::string p = fresh("p"), q = fresh("q");
      const bool first = choose(0, 2) == 0;
      g.emplace_back(p, a->left);
      g.emplace_back(q, a->right);
      const Term body = use(var(first ? p : q), first ? a->left : a->right, g, depth);
      g.pop_back();
      g.pop_back();
      return let_pair(exp_binder(p, a->left), exp_binder(q, a->right), body, t);
    }
    if (is_arrow(a)) return use(app(t, of(g, a->left, depth)), a->right, g, depth);
    return use(app(t, real(g, depth)), euclidean(a->dim), g, depth); // R^⊥d: linear application
  }

  // Γ ⊢ t : a (user rules' metavariable instances); a variable of type a now and then.
  Term of(Scope& g, const Type& a, int depth) {
    if (is_real(a)) return real(g, depth);
    const auto vars = of_type(g, a);
    if (!vars.empty() && choose(0, 3) == 0)
      return var(*vars[static_cast<std::size_t>(choose(0, static_cast<int>(vars.size())))]);
    if (is_product(a)) return pair(of(g, a->left, depth - 1), of(g, a->right, depth - 1));
    if (is_arrow(a)) {
      const std::string y = fresh("y");
      g.emplace_back(y, a->left);
      const Term body = of(g, a->right, depth - 1);
      g.pop_back();
      return lam(exp_binder(y, a->left), body);
    }
    // R^⊥d: \a:R. (l1, …, ld) with each li linear in a
    const std::string z = fresh("a");
    std::vector<Term> items;
    for (int i = 0; i < a->dim; ++i)
      items.push_back(linear(g, z, 1, std::max(depth - 1, 0)));
    return lam(lin_binder(z), tuple(items));
  }

  // ---- gen_lin (spec §10.2) ----
  // Γ ⊢_z t : R^d (d = 1 or 2)
  Term linear(Scope& g, const std::string& z, int d, int depth) {
    if (d == 2) {
      if (depth > 0 && choose(0, 3) == 0) {
        const auto fs = of_type(g, neg_type(2));
        if (!fs.empty()) {
          Term f = var(*fs[0]);
          return app(std::move(f), linear(g, z, 1, depth - 1));
        }
      }
      if (depth > 0 && choose(0, 3) == 0)
        return add(linear(g, z, 2, depth - 1), linear(g, z, 2, depth - 1));
      return pair(linear(g, z, 1, depth - 1), linear(g, z, 1, depth - 1));
    }
    if (depth <= 0) return choose(0, 5) == 0 ? num(0) : var(z);
    const auto fs = of_type(g, neg_type(1));
    switch (choose(0, 9)) {
    case 0:
      return var(z);
    case 8: { // pair destructor with a non-linear content and a linear body
      const std::string p = fresh("p"), q = fresh("q");
      const Term u = pair(real(g, depth - 1), real(g, depth - 1));
      g.emplace_back(p, R());
      g.emplace_back(q, R());
      const Term body = mul(var(*rc::gen::element(p, q)), linear(g, z, 1, depth - 1));
      g.pop_back();
      g.pop_back();
      return let_pair(exp_binder(p, R()), exp_binder(q, R()), body, u);
    }
    case 1:
      return add(linear(g, z, 1, depth - 1), linear(g, z, 1, depth - 1));
    case 2:
      return mul(real(g, depth - 1), linear(g, z, 1, depth - 1));
    case 3:
      return mul(linear(g, z, 1, depth - 1), real(g, depth - 1));
    case 4: { // linear application, or a (17) redex x' t + x' u
      if (fs.empty()) return app(neg_value(g, 1, depth - 1), linear(g, z, 1, depth - 1));
      const std::string f = *fs[0];
      if (choose(0, 2) == 0)
        return add(app(var(f), linear(g, z, 1, depth - 1)),
                   app(var(f), linear(g, z, 1, depth - 1)));
      return app(var(f), linear(g, z, 1, depth - 1));
    }
    case 5: { // exponential ES with a non-linear content and a linear body
      const std::string x = fresh("e");
      const Term u = real(g, depth - 1);
      g.emplace_back(x, R());
      const Term body = linear(g, z, 1, depth - 1);
      g.pop_back();
      return let(exp_binder(x, R()), body, u);
    }
    case 6: { // linear ES (t in w)[w : R := u in z]
      const std::string w = fresh("w");
      const Term u = linear(g, z, 1, depth - 1);
      return let(lin_binder(w), linear(g, w, 1, depth - 1), u);
    }
    default: { // bind a backpropagator-like value and call it (sharing of R^⊥)
      const std::string k = fresh("k");
      const Term v = neg_value(g, 1, depth - 1);
      g.emplace_back(k, neg_type(1));
      const Term body =
          add(app(var(k), linear(g, z, 1, depth - 1)), app(var(k), linear(g, z, 1, depth - 1)));
      g.pop_back();
      return let(exp_binder(k, neg_type(1)), body, v);
    }
    }
  }
  // ⊢ v : R^⊥d, a linear abstraction
  Term neg_value(Scope& g, int d, int depth) {
    const std::string a = fresh("a");
    return lam(lin_binder(a), linear(g, a, d, std::max(depth, 0)));
  }
  // a closed non-linear term of type R^d / R^⊥d mixing both worlds
  Term euclid(Scope& g, int d, int depth) {
    if (d == 2) {
      if (choose(0, 3) == 0) return app(neg_value(g, 2, depth - 1), real(g, depth - 1));
      if (choose(0, 2) == 0) return add(euclid(g, 2, depth - 1), euclid(g, 2, depth - 1));
      return pair(euclid(g, 1, depth - 1), euclid(g, 1, depth - 1));
    }
    switch (choose(0, 4)) {
    case 0:
      return real(g, depth);
    case 1: { // linear application to a non-linear argument
      return app(neg_value(g, 1, depth - 1), real(g, depth - 1));
    }
    case 2: { // let k = \a. … in k t + k u
      const std::string k = fresh("k");
      const Term v = neg_value(g, 1, depth - 1);
      g.emplace_back(k, neg_type(1));
      const Term body = add(app(var(k), euclid(g, 1, depth - 1)), app(var(k), real(g, depth - 1)));
      g.pop_back();
      return let(exp_binder(k, neg_type(1)), body, v);
    }
    default: { // let p = (u, v) in with a pair ES of non-values (8)/(16)
      const std::string p = fresh("p");
      const Type t = product_type(R(), neg_type(1));
      const Term content = pair(real(g, depth - 1), neg_value(g, 1, depth - 1));
      g.emplace_back(p, t);
      const std::string x = fresh("x"), xp = fresh("dx");
      g.emplace_back(x, R());
      g.emplace_back(xp, neg_type(1));
      const Term use = add(app(var(xp), var(x)), app(var(xp), real(g, depth - 1)));
      g.pop_back();
      g.pop_back();
      const Term body = let_pair(exp_binder(x, R()), exp_binder(xp, neg_type(1)), use, var(p));
      g.pop_back();
      return let(exp_binder(p, t), body, content);
    }
    }
  }
};

Source build_source(int n, bool first_order, int depth) {
  Builder b;
  b.first_order = first_order;
  Scope g;
  Source s;
  for (int i = 1; i <= n; ++i) {
    s.inputs.push_back("x" + std::to_string(i));
    g.emplace_back(s.inputs.back(), R());
    s.point.push_back(choose(-200, 201) / 100.0);
  }
  const Term body = b.real(g, depth);
  s.body = b.unique(body, s.context()); // elaborated (closed_linear)
  return s;
}

int depth_for(int size) {
  return std::clamp(1 + size / 20, 1, 4);
}

} // namespace

Term term_of(const VarScope& scope, const Type& a, int depth, int counter) {
  Builder b;
  b.mix = true;
  b.counter = counter;
  Scope g = scope;
  return b.of(g, a, depth);
}

Term use_of(const Term& t, const Type& a, const VarScope& scope, int depth, int counter) {
  Builder b;
  b.mix = true;
  b.counter = counter;
  Scope g = scope;
  return b.use(t, a, g, depth);
}

Context Source::context() const {
  Context c;
  for (const auto& x : inputs)
    c[x] = real_type();
  return c;
}

Term Source::closed() const {
  Term t = body;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    t = let(exp_binder(inputs[i], real_type()), t, num(point[i]));
  return t;
}

rc::Gen<Source> source(int max_inputs) {
  return rc::gen::withSize([max_inputs](int size) {
    return rc::gen::shrink(rc::gen::exec([=] {
                             return build_source(choose(1, max_inputs + 1), false, depth_for(size));
                           }),
                           [](const Source& s) {
                             std::vector<Source> out;
                             for (const Term& t : shrinks(s.body, s.context(), true)) {
                               Source c = s;
                               c.body = t;
                               out.push_back(c);
                             }
                             return rc::seq::fromContainer(out);
                           });
  });
}

rc::Gen<Source> graph(int max_inputs) {
  return rc::gen::withSize([max_inputs](int size) {
    return rc::gen::exec(
        [=] { return build_source(choose(1, max_inputs + 1), true, depth_for(size) + 1); });
  });
}

rc::Gen<Typed> closed_linear() {
  return rc::gen::withSize([](int size) {
    return rc::gen::exec([=] {
      // Elaborated without a type check: the Builder types every binder it makes, so once a
      // subterm used twice (x·x) has its binders renamed apart, elaborate would give the term
      // back, at the type of the construction (tests/linear_negation check both).
      Builder b;
      Scope g;
      const int depth = depth_for(size);
      switch (choose(0, 4)) {
      case 0:
        return Typed{b.unique(b.neg_value(g, 1, depth)), neg_type(1)};
      case 1:
        return Typed{b.unique(b.neg_value(g, 2, depth)), neg_type(2)};
      case 2:
        return Typed{b.unique(b.euclid(g, 1, depth)), euclidean(1)};
      default:
        return Typed{b.unique(b.euclid(g, 2, depth)), euclidean(2)};
      }
    });
  });
}

rc::Gen<Typed> closed_euclidean() {
  return rc::gen::withSize([](int size) {
    return rc::gen::exec([=] {
      Builder b;
      Scope g;
      const int d = choose(1, 3);
      const Term t = b.euclid(g, d, depth_for(size) + 1);
      return Typed{b.unique(t), euclidean(d)}; // elaborated (closed_linear)
    });
  });
}

namespace {
void shrinks_at(const Term& t, const Plug& plug, std::vector<Term>& out) {
  if (t->kind != Kind::num) {
    out.push_back(plug(num(0)));
    out.push_back(plug(num(1)));
  } else if (t->value != 0 && t->value != 1) { // numerals towards 0 and 1, else rounded
    out.push_back(plug(num(0)));
    out.push_back(plug(num(1)));
    if (std::round(t->value) != t->value) out.push_back(plug(num(std::round(t->value))));
  }
  for (const Term& k : t->kids) // replace by a subterm (kept only if the type agrees)
    out.push_back(plug(k));
  if (t->kind == Kind::let) out.push_back(plug(substitute(t->body(), t->x.name, t->bound())));
  if (t->kind == Kind::app && t->left()->kind == Kind::lam)
    out.push_back(plug(substitute(t->left()->body(), t->left()->x.name, t->right())));
}

// 0 < 1 < other integers < other reals, summed over the numerals of t.
long numeral_weight(const Term& t) {
  long w = 0;
  if (t->kind == Kind::num)
    w = t->value == 0 ? 0 : t->value == 1 ? 1 : std::round(t->value) == t->value ? 2 : 3;
  for (const Term& k : t->kids)
    w += numeral_weight(k);
  return w;
}
} // namespace

std::vector<Term> shrinks(const Term& t, const Context& gamma, bool source) {
  std::vector<Term> raw;
  for_each_subterm(t, [&](const Term& sub, const Plug& plug) {
    shrinks_at(sub, plug, raw);
    return raw.size() <= 64;
  });
  std::vector<Term> out;
  TypeOptions o;
  o.source = source;
  Type want;
  try {
    want = typecheck(t, gamma, signature(), std::nullopt, o).type;
  } catch (const AdsemError&) {
    return out;
  }
  for (const Term& c : raw) {
    // smaller, or as small with simpler numerals (so 0/1/rounding shrinks are kept; terminates)
    if (size_of(c) > size_of(t) ||
        (size_of(c) == size_of(t) && numeral_weight(c) >= numeral_weight(t)))
      continue;
    try {
      const Typed e = elaborate(c, gamma, source);
      if (same_type(e.type, want)) out.push_back(e.term);
    } catch (const AdsemError&) {
    }
  }
  return out;
}

std::vector<std::string> tags_of(const Term& t) {
  enum Tag : unsigned {
    let_tag,
    linear_tag,
    sharing_tag,
    let_pair_tag,
    lambda_tag,
    higher_order_tag,
    sum_tag,
    primitive_tag,
    partial_primitive_tag,
    tag_count
  };
  static constexpr std::array<std::string_view, tag_count> tag_names = {
      "let",          "linear", "sharing",   "let-pair",         "lambda",
      "higher-order", "sum",    "primitive", "partial-primitive"};
  unsigned tags = 0;
  bool uncounted = false; // a let whose binder's count is not on its node yet
  const auto tag = [&](Tag which) { tags |= 1U << which; };
  const auto scan = [&](const auto& self, const Node& u) -> void {
    switch (u.kind) {
    case Kind::let:
      tag(u.x.linear ? linear_tag : let_tag);
      if (!u.x.linear) {
        if (u.bound_count[0] < 0) uncounted = true;
        if (u.bound_count[0] > 1) tag(sharing_tag);
      }
      break;
    case Kind::let_pair:
      tag(let_pair_tag);
      break;
    case Kind::lam:
      tag(u.x.linear ? linear_tag : lambda_tag);
      if (u.x.type && is_arrow(u.x.type)) tag(higher_order_tag);
      break;
    case Kind::add:
      tag(sum_tag);
      break;
    case Kind::prim:
      tag(primitive_tag);
      if (u.name == "log" || u.name == "sqrt" || u.name == "div") tag(partial_primitive_tag);
      break;
    default:
      break;
    }
    for (const Term& k : u.kids)
      self(self, *k);
  };
  on_stack_for(t, [&] { scan(scan, *t); });
  // "sharing" reads each let's count off its node (a reducer's count mode leaves them there):
  // the counts not known yet are found in one walk, no free-variable list made
  if (uncounted) {
    count_binders(t);
    tags = 0;
    on_stack_for(t, [&] { scan(scan, *t); });
  }
  // the order of a std::set of the names, fixed here rather than sorted at each call
  static constexpr std::array<Tag, tag_count> by_name = {
      higher_order_tag,      lambda_tag,    let_tag,     let_pair_tag, linear_tag,
      partial_primitive_tag, primitive_tag, sharing_tag, sum_tag};
  static_assert(std::is_sorted(by_name.begin(), by_name.end(),
                               [](Tag a, Tag b) { return tag_names[a] < tag_names[b]; }));
  std::vector<std::string> out;
  for (const Tag which : by_name)
    if (tags & (1U << which)) out.emplace_back(tag_names[which]);
  return out;
}

void showValue(const Source& s, std::ostream& os) {
  for (std::size_t i = 0; i < s.inputs.size(); ++i)
    os << (i > 0 ? ", " : "") << s.inputs[i];
  os << " |- " << print(s.body) << " at ";
  for (std::size_t i = 0; i < s.inputs.size() && i < s.point.size(); ++i)
    os << (i > 0 ? ", " : "") << s.inputs[i] << " = " << s.point[i];
}

} // namespace adsem::linear_negation::gen

namespace adsem::linear_negation {

void showValue(const Typed& t, std::ostream& os) {
  os << print(t.term) << " : " << print_type(t.type);
}
void showValue(const Term& t, std::ostream& os) {
  os << print(t);
}

} // namespace adsem::linear_negation
