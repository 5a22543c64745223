// Type-directed generation of simple-diff terms (spec §10), see terms.hpp.
#include "generators/simple_diff/terms.hpp"

#include <algorithm>
#include <cstdint>
#include <random>

#include "semantics/core/lazy_mt19937_64.hpp"
#include "semantics/simple_diff/run.hpp"
#include "syntax/simple_diff/derived.hpp"
#include "syntax/simple_diff/names.hpp"
#include "syntax/simple_diff/printer.hpp"

namespace adsem::simple_diff::gen {

namespace {

struct FunSig {
  std::string name;
  Type param, result;
  bool counter = false; // f(<k, a>) recurses k times (spec §10 "terminating recursion")
};

struct Scope {
  std::vector<std::pair<std::string, Type>> vars;
  std::vector<FunSig> funs; // innermost last; a name shadows earlier ones
  int rd_depth = 0;
};

class Builder {
public:
  Builder(std::uint64_t seed, const TermOptions& options) : rng_(seed), options_(options) {}

  Term term(const Scope& s, const Type& t, int size) {
    if (size <= 1) return leaf(s, t);
    if (t->is_real()) return real_term(s, size);
    if (t->is_unit()) return chance(0.7) ? mk::unit() : binder(s, t, size);
    // T × U
    const double r = uniform();
    if (r < 0.6 || (options_.trace_only && r < 0.8))
      return mk::pair_ann(term(s, t->left, size / 2), term(s, t->right, size / 2), t);
    if (r < 0.8) return binder(s, t, size);
    return control(s, t, size);
  }

  Type small_type() {
    const double r = uniform();
    if (r < 0.6) return real_type();
    if (r < 0.9) return real_power(2);
    if (r < 0.95) return unit_type();
    return product_type(real_type(), real_power(2));
  }

  double literal() { return static_cast<double>(pick(-12, 12)) / 4.0; }

private:
  // <M, N> of two reals, annotated as the type checker would (the builder knows every type it
  // asks for, so the drawn term needs no elaborating pass).
  Term reals(Term m, Term n) const { return mk::pair_ann(std::move(m), std::move(n), real2_); }

  Term real_term(const Scope& s, int size) {
    const int k = size - 1;
    const double r = uniform();
    if (r < 0.12) return mk::add(term(s, real_type(), k / 2), term(s, real_type(), k / 2));
    if (r < 0.24) {
      static const char* binary[] = {"mul", "sub", "mul"};
      return mk::op(binary[pick(0, 2)],
                    reals(term(s, real_type(), k / 2), term(s, real_type(), k / 2)));
    }
    if (r < 0.34) {
      static const char* unary[] = {"sin", "cos", "tanh", "neg"};
      return mk::op(unary[pick(0, 3)], term(s, real_type(), k));
    }
    if (r < 0.42) return partial(s, k);
    if (r < 0.52) return projection(s, k);
    if (r < 0.68) return binder(s, real_type(), size);
    return control(s, real_type(), size);
  }

  // Partial primitives, mostly kept inside their domains but near the boundary, sometimes not.
  Term partial(const Scope& s, int k) {
    const Term m = term(s, real_type(), k / 2);
    const double r = uniform();
    if (r < 0.35) // log(M*M + c): defined, near 0 when M is
      return mk::op("log", mk::add(mk::op("mul", reals(m, m)), mk::constant(0.25)));
    if (r < 0.6) // M / (N*N + c)
      return mk::op("div", reals(m, mk::add(mk::op("mul", reals(term(s, real_type(), k / 2),
                                                                term(s, real_type(), 1))),
                                            mk::constant(0.5))));
    if (r < 0.8) return mk::op("sqrt", mk::add(mk::op("exp", m), mk::constant(0.125)));
    if (r < 0.9) return mk::op("log", m); // domain-unsafe (spec §10: ≈5%)
    return mk::op("exp", mk::op("sin", m));
  }

  Term projection(const Scope& s, int k) {
    const Type other = small_type();
    if (chance(0.5)) {
      const Type product = product_type(real_type(), other);
      return mk::fst_ann(term(s, product, k), product);
    }
    const Type product = product_type(other, real_type());
    return mk::snd_ann(term(s, product, k), product);
  }

  // let, and (outside traces) function definitions.
  Term binder(const Scope& s, const Type& t, int size) {
    const int k = size - 1;
    if (!options_.trace_only && s.rd_depth < 2 && chance(0.45)) return letrec(s, t, size);
    const Type u = small_type();
    const std::string y = fresh_var();
    const Term m = term(s, u, k / 2);
    Scope inner = s;
    inner.vars.emplace_back(y, u);
    return mk::let(y, u, m, term(inner, t, k - k / 2));
  }

  // if, calls, rd, grad, fd.
  Term control(const Scope& s, const Type& t, int size) {
    if (options_.trace_only) return binder(s, t, size);
    const int k = size - 1;
    const double r = uniform();
    if (r < 0.3) return mk::if_(guard(s, k / 3), term(s, t, k / 3), term(s, t, k / 3));
    if (r < 0.55) {
      std::vector<const FunSig*> callable;
      for (const FunSig* f : visible_ptrs(s))
        if (same_type(f->result, t)) callable.push_back(f);
      if (!callable.empty())
        return call(s, *callable[pick(0, static_cast<int>(callable.size()) - 1)], k);
    }
    const int dim = t->is_real()                                                   ? 1
                    : t->is_product() && t->left->is_real() && t->right->is_real() ? 2
                                                                                   : 0;
    if (dim > 0 && s.rd_depth < 2) return rd(s, t, size);
    if (r < 0.8) return letrec(s, t, size);
    return mk::if_(guard(s, k / 3), term(s, t, k / 3), term(s, t, k / 3));
  }

  // less(<M, c>) mostly (the partial predicate, seed 003 line 152); sometimes true or false.
  Term guard(const Scope& s, int k) {
    const double r = uniform();
    if (r < 0.05) return mk::b_true();
    if (r < 0.1) return mk::b_false();
    return mk::pred("less", reals(term(s, real_type(), k), mk::constant(literal())));
  }

  // The visible functions (a later definition shadows an earlier one of the same name).
  static std::vector<const FunSig*> visible_ptrs(const Scope& s) {
    std::vector<const FunSig*> out;
    for (auto it = s.funs.rbegin(); it != s.funs.rend(); ++it)
      if (std::none_of(out.begin(), out.end(),
                       [&](const FunSig* f) { return f->name == it->name; }))
        out.push_back(&*it);
    return out;
  }
  // A real component of y : T (T = real or real × real).
  static Term project_real(const Type& t, const std::string& y) {
    return t->is_real() ? mk::var(y) : mk::fst_ann(mk::var(y), t);
  }

  Term call(const Scope& s, const FunSig& f, int k) {
    if (f.counter) // f(<n, A>), n in 0..3
      return mk::call(f.name,
                      mk::pair_ann(mk::constant(pick(0, 3)), term(s, f.param->right, k), f.param));
    return mk::call(f.name, term(s, f.param, k));
  }

  // W.rd_L(y:T. N) with N : U built under Γ[y:T]; sometimes as grad (U = real) or fd.
  Term rd(const Scope& s, const Type& t, int size) {
    const int k = size - 1;
    const std::string y = fresh_var();
    Scope inner = s;
    inner.vars.emplace_back(y, t);
    inner.rd_depth = s.rd_depth + 1;
    const Type u = chance(0.7) ? real_type() : real_power(2);
    Term body = term(inner, u, k / 2);
    if (u->is_real() && !uses(*body, y)) // differentiate something that depends on y
      body = mk::add(body, mk::op("mul", reals(project_real(t, y), project_real(t, y))));
    if (u->is_real() && s.rd_depth == 0 && chance(0.3)) // nested rd (seed 003 E1, line 414)
      body = mk::add(body, rd(inner, real_type(), std::max(3, k / 2)));
    Term point = term(s, t, k / 4);
    if (u->is_real() && chance(0.3)) return grad_of(point, y, t, body, true);
    return mk::rd(term(s, u, k / 4), point, y, t, body);
  }

  // letrec with a decreasing counter, or a non-recursive function (let f(y:T):U = M in N).
  Term letrec(const Scope& s, const Type& t, int size) {
    const int k = size - 1;
    static const char* names[] = {"f", "g"};
    const std::string f = names[pick(0, 1)];
    const std::string p = fresh_var();
    Scope body_scope;
    body_scope.rd_depth = s.rd_depth;
    for (const FunSig& g : s.funs) // the body sees the outer functions, not its own name
      if (g.name != f) body_scope.funs.push_back(g);
    Scope scope = s;
    if (chance(0.5)) {
      // letrec f(p: real * A): A = if less(<fst(p), 0.5>) then snd(p)
      //                           else f(<sub(<fst(p), 1>), STEP[p]>) in N
      const Type a = chance(0.8) ? real_type() : real_power(2);
      const Type param = product_type(real_type(), a);
      body_scope.vars = {{p, param}};
      // STEP sees p only (T-letrec), and may call outer functions
      const Term step = with_outer_call(body_scope, term(body_scope, a, k / 3), a);
      const double decrement = options_.divergent && chance(0.4) ? 0.0 : 1.0; // 0: may diverge
      const Term counter = mk::fst_ann(mk::var(p), param);
      const Term recurse = mk::call(
          f, mk::pair_ann(mk::op("sub", reals(counter, mk::constant(decrement))), step, param));
      const Term body = mk::if_(mk::pred("less", reals(counter, mk::constant(0.5))),
                                mk::snd_ann(mk::var(p), param), recurse);
      scope.funs.push_back(FunSig{f, param, a, true});
      Term in = term(scope, t, k - k / 3);
      if (!calls(*in, f)) in = use_call(scope, t, scope.funs.back(), in, k / 3);
      // sometimes the limited letrec_n of Fig. 8, with n large enough for counters 0..3
      const std::optional<int> limit = chance(0.2) ? std::optional<int>(4) : std::nullopt;
      return mk::letrec(f, p, param, a, body, in, limit);
    }
    const Type param = small_type();
    const Type result = chance(0.8) ? real_type() : small_type();
    body_scope.vars = {{p, param}};
    const Term body = with_outer_call(body_scope, term(body_scope, result, k / 3), result);
    scope.funs.push_back(FunSig{f, param, result, false});
    Term in = term(scope, t, k - k / 3);
    if (!calls(*in, f)) in = use_call(scope, t, scope.funs.back(), in, k / 3);
    return with_sugar(mk::letrec(f, p, param, result, body, in),
                      Sugar{Sugar::Kind::let_fun, nullptr, {}, {}});
  }

  // M + g(...) for a visible outer g : S -> real, often: a later definition may shadow g, so
  // static and dynamic scoping of function names give different values (spec P-9).
  Term with_outer_call(const Scope& s, const Term& m, const Type& t) {
    if (!t->is_real() || !chance(0.9)) return m;
    for (const FunSig* g : visible_ptrs(s))
      if (g->result->is_real()) return mk::add(m, call(s, *g, 1));
    return m;
  }

  // let z = f(...) in N: make sure a defined function is called.
  // Sometimes the call sits under a redefinition of another function h that f's body may call:
  // f must still see the h of its definition (static scoping, seed 003 Fig. 2 O-call).
  Term use_call(const Scope& s, const Type& t, const FunSig& f, const Term& in, int k) {
    Term c = call(s, f, k);
    if (chance(0.9))
      for (const FunSig* h : visible_ptrs(s))
        if (h->name != f.name && !h->counter) {
          c = with_sugar(
              mk::letrec(h->name, fresh_var(), h->param, h->result, constant_of(h->result), c),
              Sugar{Sugar::Kind::let_fun, nullptr, {}, {}});
          break;
        }
    if (t->is_real() && f.result->is_real()) return mk::add(in, c);
    return mk::let(fresh_var(), f.result, c, in);
  }

  Term leaf(const Scope& s, const Type& t) {
    std::vector<std::string> candidates;
    for (const auto& [y, u] : s.vars)
      if (same_type(u, t)) candidates.push_back(y);
    if (!candidates.empty() && chance(0.75))
      return mk::var(
          candidates[static_cast<std::size_t>(pick(0, static_cast<int>(candidates.size()) - 1))]);
    return constant_of(t);
  }

  Term constant_of(const Type& t) {
    switch (t->kind) {
    case TypeNode::Kind::real:
      return mk::constant(literal());
    case TypeNode::Kind::unit:
      return mk::unit();
    case TypeNode::Kind::product:
      return mk::pair_ann(constant_of(t->left), constant_of(t->right), t);
    }
    return mk::unit();
  }

  static bool uses(const Node& n, const std::string& y) {
    if (n.kind == Kind::var && n.name == y) return true;
    for (const Term& c : {n.a, n.b, n.c})
      if (c && uses(*c, y)) return true;
    return false;
  }
  static bool calls(const Node& n, const std::string& f) {
    if (n.kind == Kind::call && n.name == f) return true;
    if (n.kind == Kind::letrec && n.name == f) return false; // shadowed below
    for (const Term& c : {n.a, n.b, n.c})
      if (c && calls(*c, f)) return true;
    return false;
  }

  std::string fresh_var() {
    for (;;) { // never a name of the given scope (a shadowing binder would retype it)
      std::string name = std::to_string(++vars_);
      name.insert(name.begin(), 'v');
      if (std::ranges::none_of(options_.scope, [&](const auto& v) { return v.first == name; }))
        return name;
    }
  }
  double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }
  bool chance(double p) { return uniform() < p; }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  LazyMt19937_64 rng_; // std::mt19937_64's numbers, without twisting 312 words per term
  TermOptions options_;
  const Type real2_ = product_type(real_type(), real_type()); // reals' annotation, built once
  int vars_ = 0;
};

std::optional<OpenTerm> checked(OpenTerm t) {
  try {
    const Typed typed = typecheck(t.term, primitives(), gamma_of(t));
    if (t.type && !same_type(typed.type, t.type)) return std::nullopt;
    t.term = typed.term;
    t.type = typed.type;
    return t;
  } catch (const AdsemError&) {
    return std::nullopt;
  }
}

OpenTerm build(std::uint64_t seed, int size, const TermOptions& options) {
  Builder b(seed, options);
  OpenTerm t;
  t.x = options.x;
  t.t = options.param ? options.param : seed % 3 == 0 ? real_power(2) : real_type();
  t.type = options.result ? options.result : options.real_result ? real_type() : b.small_type();
  t.scope = options.scope;
  t.has_x = !options.no_x;
  Scope s;
  s.vars = gamma_of(t);
  // Built annotated and well typed (Fig. 1), so not type-checked again per draw: checking it
  // was 8% of an adequacy trial. SimpleDiffGenerators.BuiltTermsAreElaborated checks that the
  // type checker accepts every drawn term and fills in exactly the annotations it carries.
  t.term = b.term(s, t.type, size);
  return t;
}

// The construct tags of a term in the order they are first met; `seen` has one bit per tag, so
// that a tag is not looked for among the names already collected at every node.
struct TagSet {
  std::vector<std::string> tags;
  std::uint32_t seen = 0;

  void add(std::uint32_t bit, const char* name) {
    if (seen & bit) return;
    seen |= bit;
    tags.emplace_back(name);
  }
};

void collect(const Node& n, int rd_depth, TagSet& tags) {
  switch (n.kind) {
  case Kind::rd:
    tags.add(1u << 0, "rd");
    if (rd_depth >= 1) tags.add(1u << 1, "nested-rd");
    break;
  case Kind::letrec:
    tags.add(1u << 2, "letrec");
    break;
  case Kind::if_:
    tags.add(1u << 3, "if");
    break;
  case Kind::call:
    tags.add(1u << 4, "call");
    break;
  case Kind::pair:
    tags.add(1u << 5, "pair");
    break;
  case Kind::let:
    tags.add(1u << 6, "let");
    break;
  case Kind::op:
    if (n.name == "log" || n.name == "div" || n.name == "sqrt") tags.add(1u << 7, "partial-prim");
    break;
  default:
    break;
  }
  const int inner = n.kind == Kind::rd ? rd_depth + 1 : rd_depth;
  if (n.a) collect(*n.a, rd_depth, tags);
  if (n.b) collect(*n.b, rd_depth, tags);
  if (n.c) collect(*n.c, inner, tags);
}

// Typed replacements for the subterm n (same type when n is a term of a known type).
void shrink_node(const Term& n, std::vector<Term>& out) {
  switch (n->kind) {
  case Kind::constant:
    if (n->value != 0.0) out.push_back(mk::constant(0.0));
    if (n->value != std::trunc(n->value)) out.push_back(mk::constant(std::trunc(n->value)));
    break;
  case Kind::add:
    out.push_back(n->a);
    out.push_back(n->b);
    break;
  case Kind::op:
    out.push_back(mk::constant(1.0));
    if (n->a->kind == Kind::pair) {
      out.push_back(n->a->a);
      out.push_back(n->a->b);
    } else {
      out.push_back(n->a);
    }
    break;
  case Kind::let:
    out.push_back(n->b); // drop the binding (well typed when y is unused)
    break;
  case Kind::if_:
    out.push_back(n->b);
    out.push_back(n->c);
    break;
  case Kind::letrec:
    out.push_back(n->b);
    break;
  case Kind::rd:
    out.push_back(n->b);             // the point has the result type T
    out.push_back(zero_of(n->type)); // 0_T
    break;
  case Kind::fst:
  case Kind::snd:
    out.push_back(mk::constant(0.0));
    break;
  default:
    break;
  }
  // shrink inside the children
  const Term kids[] = {n->a, n->b, n->c};
  for (int i = 0; i < 3; ++i) {
    if (!kids[i]) continue;
    std::vector<Term> inner;
    shrink_node(kids[i], inner);
    for (const Term& k : inner) {
      Term a = n->a, b = n->b, c = n->c;
      (i == 0 ? a : i == 1 ? b : c) = k;
      out.push_back(with_children(*n, a, b, c));
    }
  }
}

} // namespace

std::vector<std::pair<std::string, Type>> gamma_of(const OpenTerm& t) {
  std::vector<std::pair<std::string, Type>> gamma;
  if (t.has_x) gamma.emplace_back(t.x, t.t);
  gamma.insert(gamma.end(), t.scope.begin(), t.scope.end());
  return gamma;
}

std::vector<OpenTerm> shrinks(const OpenTerm& t) {
  std::vector<Term> candidates;
  shrink_node(t.term, candidates);
  std::vector<OpenTerm> out;
  for (const Term& c : candidates) {
    if (out.size() >= 200) break;
    OpenTerm s = t;
    s.term = c;
    if (auto ok = checked(s)) out.push_back(*ok);
  }
  return out;
}

rc::Gen<OpenTerm> open_term(TermOptions options) {
  const auto raw = rc::gen::withSize([options](int size) {
    const int budget = 3 + size * options.max_size / 100;
    return rc::gen::map(
        rc::gen::noShrink(rc::gen::arbitrary<std::uint64_t>()),
        [budget, options](std::uint64_t seed) { return build(seed, budget, options); });
  });
  return rc::gen::shrink(raw, [](const OpenTerm& t) { return rc::seq::fromContainer(shrinks(t)); });
}

rc::Gen<std::vector<double>> point(int dimension) {
  return rc::gen::container<std::vector<double>>(
      static_cast<std::size_t>(dimension),
      rc::gen::map(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(-24, 25)),
                   [](int k) { return k / 8.0; }));
}

rc::Gen<std::vector<double>> direction(int dimension) {
  return rc::gen::container<std::vector<double>>(
      static_cast<std::size_t>(dimension),
      rc::gen::map(rc::gen::resize(rc::kNominalSize, rc::gen::inRange(-16, 17)),
                   [](int k) { return k / 8.0; }));
}

std::vector<std::string> construct_tags(const Term& term) {
  TagSet tags;
  collect(*term, 0, tags);
  return std::move(tags.tags);
}

void showValue(const OpenTerm& t, std::ostream& os) {
  const auto gamma = gamma_of(t);
  for (std::size_t i = 0; i < gamma.size(); ++i)
    os << (i > 0 ? ", " : "") << gamma[i].first << " : " << print_type(gamma[i].second);
  os << " |- " << print(t.term) << " : " << print_type(t.type);
}

} // namespace adsem::simple_diff::gen
