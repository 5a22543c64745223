#include "generators/pullback/terms.hpp"

#include <algorithm>
#include <array>
#include <random>

#include "generators/core/uniform.hpp"
#include "generators/core/weighted_choice.hpp"
#include "semantics/pullback/primitive_table.hpp"
#include "syntax/pullback/printer.hpp"

namespace adsem::pullback::gen {

namespace {

using adsem::gen::option;
using adsem::gen::Weighted;

const Type R = real_type();
const Type R2 = real_power(2); // [perf] made once: the generator asks for R² at most nodes

using Scope = std::vector<std::pair<std::string, Type>>;

// The atoms x_p of type `want` reachable from the scope, in one order: scope order, a variable
// before its components, left components first. [perf] Counted without building them, and only
// the one drawn is built (every node drawn asks how many there are).
std::size_t count_atoms(const Type& ty, const Type& want) {
  std::size_t n = same_type(ty, want) && !is_any(want) ? 1 : 0;
  if (is_prod(ty)) n += count_atoms(ty->left, want) + count_atoms(ty->right, want);
  return n;
}
std::size_t count_atoms(const Scope& scope, const Type& want) {
  std::size_t n = 0;
  for (const auto& entry : scope)
    n += count_atoms(entry.second, want);
  return n;
}
Term nth_atom(const Term& root, const Type& ty, const Type& want, std::size_t i) {
  if (same_type(ty, want) && !is_any(want)) {
    if (i == 0) return root;
    --i;
  }
  const std::size_t left = count_atoms(ty->left, want);
  return i < left ? nth_atom(proj(1, root), ty->left, want, i)
                  : nth_atom(proj(2, root), ty->right, want, i - left);
}
Term nth_atom(const Scope& scope, const Type& want, std::size_t i) {
  for (const auto& [x, t] : scope) {
    const std::size_t here = count_atoms(t, want);
    if (i < here) return nth_atom(var(x, t), t, want, i);
    i -= here;
  }
  return nullptr; // i is below count_atoms(scope, want): not reached
}

class Builder {
public:
  explicit Builder(bool straight_line = false, int first_name = 0)
      : straight_(straight_line), counter_(first_name) {}

  // Choices are drawn over their whole range (RapidCheck scales inRange by the size; the term size
  // is bounded by the depth instead) and shrink towards the first option (a leaf).
  int pick(int n) { return n <= 1 ? 0 : static_cast<int>(adsem::gen::uniform_below(n)); }
  double number() { return (pick(17) - 8) / 4.0; }
  std::string name(const char* base) { return base + std::to_string(++counter_); }

  // A weighted choice among productions (generators/core/weighted_choice.hpp).
  template <class... Build> Term choose(Weighted<Build>... options) {
    return adsem::gen::choose([this](int total) { return pick(total); }, std::move(options)...);
  }
  // One of the `count` atoms of type `want` in the scope, drawn.
  Term draw_atom(const Scope& s, const Type& want, std::size_t count) {
    return nth_atom(s, want, static_cast<std::size_t>(pick(static_cast<int>(count))));
  }

  Term numeral_of(const Type& t) {
    if (is_prod(t)) return pair(numeral_of(t->left), numeral_of(t->right));
    return num(number());
  }

  // ---- diff-friendly expressions of Euclidean type (spec §10 "Diff-friendly mode") ----
  Term real(Scope& s, int d) {
    const std::size_t atoms = count_atoms(s, R);
    const bool deeper = d > 0, partial = deeper && !straight_; // partial: and higher-order
    return choose(
        option(10, [&] { return num(number()); }),
        option(atoms > 0 ? 30 : 0, [&] { return draw_atom(s, R, atoms); }),
        option(deeper ? 16 : 0,
               [&] {
                 static const std::vector<std::string> f = {"sin", "cos", "tanh", "neg", "pow2"};
                 return make_prim(f[static_cast<std::size_t>(pick(5))], real(s, d - 1));
               }),
        option(deeper ? 14 : 0,
               [&] {
                 static const std::vector<std::string> f = {"mult", "add", "sub"};
                 return make_prim(f[static_cast<std::size_t>(pick(3))],
                                  pair(real(s, d - 1), real(s, d - 1)));
               }),
        option(deeper ? 8 : 0,
               [&] {
                 return sum({real(s, d - 1), real(s, d - 1)});
               }),
        option(deeper ? 6 : 0, [&] { return proj(1 + pick(2), make_prim("g", vec2(s, d - 1))); }),
        option(deeper ? 10 : 0, [&] { return let_in(s, d, R); }),
        option(partial ? 7 : 0,
               [&] {
                 static const std::vector<std::string> f = {"log", "sqrt", "div"};
                 const std::string g = f[static_cast<std::size_t>(pick(3))];
                 return g == "div" ? make_prim(g, pair(real(s, d - 1), real(s, d - 1)))
                                   : make_prim(g, real(s, d - 1));
               }),
        option(partial ? 10 : 0, [&] { return local_lambda(s, d); }),
        option(partial ? 4 : 0,
               [&] {
                 const std::string z = name("z");
                 Scope inner = s;
                 inner.push_back({z, R});
                 const Term b = real(inner, d - 1);
                 return app(lam(z, R, b), real(s, d - 1));
               }),
        option(partial ? 6 : 0, [&] { return zero(R); }));
  }
  Term vec2(Scope& s, int d) {
    const std::size_t atoms = count_atoms(s, R2);
    return choose(option(20, [&] { return pair(real(s, d), real(s, d)); }),
                  option(atoms > 0 ? 10 : 0, [&] { return draw_atom(s, R2, atoms); }),
                  option(d > 0 ? 6 : 0, [&] { return make_prim("g", vec2(s, d - 1)); }));
  }
  Term euclid(Scope& s, const Type& t, int d) {
    if (is_real(t)) return real(s, d);
    if (same_type(t, R2) && pick(3) == 0) return vec2(s, d);
    return pair(euclid(s, t->left, d), euclid(s, t->right, d));
  }
  Term let_in(Scope& s, int d, const Type& result) {
    const std::string x = name("a");
    const bool two = pick(3) == 0;
    const Type rho = two ? R2 : R;
    const Term bound = two ? vec2(s, d - 1) : real(s, d - 1);
    s.push_back({x, rho});
    const Term body = euclid(s, result, d - 1);
    s.pop_back();
    return let(x, rho, bound, body);
  }
  // let h = λz.P in … h(…) …  (a let-bound λ applied to y-dependent values, spec §10 template 2)
  Term local_lambda(Scope& s, int d) {
    const std::string h = name("h"), z = name("z");
    Scope inner = s;
    inner.push_back({z, R});
    const Term fbody = real(inner, d - 1);
    const Type ft = arrow(R, R);
    s.push_back({h, ft});
    const Term hv = var(h, ft);
    const Term use =
        pick(2) == 0 ? app(hv, real(s, d - 1))
                     : make_prim("mult", pair(app(hv, real(s, d - 1)), app(hv, real(s, d - 1))));
    s.pop_back();
    return let(h, ft, lam(z, R, fbody), use);
  }

  // ---- open stages (spec §10 "Coverage feedback") ----
  // P preceded by dead stages (their values unused, so the body's derivative is P's) that mention
  // y without needing a Hessian ((λz. (λb. S) y)*, S linear in z). Rows 16b, 16c and 17 of seed 000
  // Fig. 3 (L245-246) differentiate a dual map or a pullback with a free variable bound outside the
  // derivative; in a closed query only a stage variable or a premise's free variable is one:
  //  - 16c: let e = (λz.S)*·c in …, c a covector: compact ANF binds c to a stage, so after rule 8
  //    the dual map's argument is a projection of the stage tuple;
  //  - 16b and Σ3: let h = λc:ρ*. (let e = (λz.S)*·a in R) in let k = h c' in …, a = c or
  //    c + c'': rule 18's premise JAC differentiates h's body with c free (an argument free of y:
  //    16b), and the forward value (λz.S[V/y])*·(c + c'') is a dual-map redex on a sum (Σ3);
  //  - 17: let p = (Ω λx.P')·ω' in …, ω' bound to a stage, hence a stage variable.
  Term open_body(Scope& s, const Term& rest) {
    const std::size_t ys = count_atoms(s, R);
    if (ys == 0) return rest;
    const auto vacuous = [&](const Type& out, Term argument) { // (λz:ρ. (λb:R. S) y)*·argument
      const Type rho = pick(2) == 0 ? R : R2;
      const Term y = draw_atom(s, R, ys);
      const std::string z = name("z"), b = name("b");
      return dualmap(z, rho, app(lam(b, R, plain_linear(z, rho, out, 1)), y), argument);
    };
    const auto euclid_out = [&] { return pick(2) == 0 ? R : R2; };
    // 16b, Σ3: let h = λc:ρ*. (let e = (λz.S)*·a in R) in let k = h c' in rest
    const Type out_h = euclid_out();
    const std::string h = name("h"), c = name("c"), k = name("k"), e2 = name("e");
    const Term cv = var(c, pullback::dual(out_h));
    const Term dm2 = vacuous(out_h, pick(2) == 0 ? cv : sum({cv, covector(out_h)}));
    const Type ht = arrow(pullback::dual(out_h), R);
    const Term h_body = let(e2, type_of(dm2), dm2, real(s, 0));
    Term body = let(h, ht, lam(c, pullback::dual(out_h), h_body),
                    let(k, R, app(var(h, ht), covector(out_h)), rest));
    // Σ2 and N2: let g = λq:R². (q + ⟨y, r⟩).1 in let k' = g (⟨r', r''⟩ + ⟨y, r⟩) in …; the
    // premise of rule 18 runs g's body with q free, whose forward value (q + ⟨V, r⟩).1 projects a
    // sum (Σ2); the forward value of g's argument adds two pairs (N2).
    {
      const Term y = draw_atom(s, R, ys);
      const std::string g = name("g"), q = name("q"), k2 = name("k");
      const Type gt = arrow(R2, R);
      const Term g_body = proj(1, sum({var(q, R2), pair(y, num(number()))}));
      const Term g_argument = sum({pair(num(number()), num(number())), pair(y, num(number()))});
      body = let(g, gt, lam(q, R2, g_body), let(k2, R, app(var(g, gt), g_argument), body));
    }
    // 16c: let e = (λz.S)*·c in …
    const Type out_e = euclid_out();
    const std::string e1 = name("e");
    const Term dm1 = vacuous(out_e, covector(out_e));
    body = let(e1, type_of(dm1), dm1, body);
    // 17: let p = (Ω λx.P')·ω' in …, first (its premises are the costliest to thread)
    const std::string x = name("x"), u = name("u"), p = name("p");
    Scope inner{{x, R}};
    const Term nested = pullback(x, R, real(inner, 0), lam(u, R, covector(R)));
    return let(p, arrow(R, pullback::dual(R)), nested, body);
  }
  Term covector(const Type& t) {
    std::vector<double> c;
    for (std::size_t i = 0; i < dim(t); ++i)
      c.push_back(number());
    return covec(c, t);
  }
  // A term S : ρ strictly linear in x without Jacobians: a Jacobian's point inside a dual map
  // that mentions y would need a Hessian in rule 16's premise (spec §10).
  Term plain_linear(const std::string& x, const Type& sigma, const Type& rho, int d) {
    const Scope s{{x, sigma}};
    const std::size_t atoms = count_atoms(s, rho);
    if (atoms == 0 && !is_prod(rho)) return zero(rho);
    return choose(
        option(atoms > 0 ? 10 : 0, [&] { return draw_atom(s, rho, atoms); }),
        option(is_prod(rho) ? 10 : 0,
               [&] {
                 return pair(plain_linear(x, sigma, rho->left, d),
                             plain_linear(x, sigma, rho->right, d));
               }),
        option(d > 0 && atoms > 0 ? 4 : 0, [&] {
          return sum({plain_linear(x, sigma, rho, d - 1), plain_linear(x, sigma, rho, d - 1)});
        }));
  }

  // ---- genLin (spec §10): x ∈ lin (strict) ----
  Term linear(const std::string& x, const Type& sigma, const Type& rho, int d) {
    const Scope s{{x, sigma}};
    const std::size_t atoms = count_atoms(s, rho);
    const bool deeper = d > 0, real_out = deeper && is_real(rho);
    return choose(
        option(atoms > 0 ? 30 : 0, [&] { return draw_atom(s, rho, atoms); }),
        option(3, [&] { return zero(rho); }),
        option(deeper && is_prod(rho) ? 20 : 0,
               [&] {
                 return pair(linear(x, sigma, rho->left, d - 1),
                             linear(x, sigma, rho->right, d - 1));
               }),
        option(deeper ? 10 : 0,
               [&] {
                 return sum({linear(x, sigma, rho, d - 1), linear(x, sigma, rho, d - 1)});
               }),
        option(real_out ? 15 : 0,
               [&] {
                 static const std::vector<std::string> f = {"sin", "exp", "pow2", "tanh"};
                 const std::string g = f[static_cast<std::size_t>(pick(4))];
                 return app(make_jac(g, linear(x, sigma, R, d - 1)), num(number()));
               }),
        option(real_out ? 15 : 0,
               [&] {
                 static const std::vector<std::string> f = {"mult", "add", "sub"};
                 return app(
                     make_jac(f[static_cast<std::size_t>(pick(3))], linear(x, sigma, R2, d - 1)),
                     pair(num(number()), num(number())));
               }),
        option(real_out ? 6 : 0, [&] { return proj(1 + pick(2), linear(x, sigma, R2, d - 1)); }),
        option(deeper && same_type(rho, R2) ? 8 : 0, [&] {
          return app(make_jac("g", linear(x, sigma, R2, d - 1)),
                     pair(num(number()), num(number())));
        }));
  }

  Type euclid_type(bool big = false) {
    static const std::vector<Type> small = {R, R, R2, real_power(3)};
    static const std::vector<Type> all = {R, R2, real_power(3), prod(R2, R2)};
    const auto& pool = big ? all : small;
    return pool[static_cast<std::size_t>(pick(static_cast<int>(pool.size())))];
  }

  // closed terms of σ* (σ Euclidean)
  Term dual(const Type& sigma, int d) {
    const bool deeper = d > 0;
    return choose(option(20, [&] { return covector(sigma); }),
                  option(2, [&] { return zero(pullback::dual(sigma)); }),
                  option(deeper ? 25 : 0,
                         [&] {
                           const Type rho = euclid_type();
                           const std::string x = name("x");
                           return dualmap(x, sigma, linear(x, sigma, rho, 2), dual(rho, d - 1));
                         }),
                  option(deeper ? 35 : 0, [&] { return query_term(sigma, d - 1); }),
                  option(deeper ? 8 : 0, [&] {
                    return sum({dual(sigma, d - 1), dual(sigma, d - 1)});
                  }));
  }
  Term query_term(const Type& sigma, int d) {
    Query q = first_order(sigma, d < 1 ? 1 : 2);
    return q.term();
  }

  Term one_form_for(const Type& tau, std::vector<double>& cot) {
    const int k = pick(4);
    std::vector<double> c;
    for (std::size_t i = 0; i < dim(tau); ++i)
      c.push_back(
          k == 0 ? (i == static_cast<std::size_t>(pick(static_cast<int>(dim(tau)))) ? 1.0 : 0.0)
                 : number());
    if (is_real(tau) && k == 3) { // a u-dependent covector field ω(u) = (c·cos u)*
      const std::string u = name("u"), z = name("z");
      return lam(u, R, dualmap(z, R, app(make_jac("sin", var(z, R)), var(u, R)), covec(c, R)));
    }
    cot = c;
    return lam(name("u"), tau, covec(c, tau));
  }

  Query first_order(Type sigma, int d) {
    Query q;
    q.y = name("y");
    q.sigma = sigma ? sigma : euclid_type(true);
    q.tau = pick(3) == 0 ? R2 : R;
    Scope s{{q.y, q.sigma}};
    q.body = euclid(s, q.tau, d);
    q.omega = one_form_for(q.tau, q.cotangent);
    q.point = numeral_of(q.sigma);
    q.straight_line = straight_;
    return q;
  }
  Query open_query(int d) {
    Query q = first_order(nullptr, d);
    Scope s{{q.y, q.sigma}};
    q.body = open_body(s, q.body);
    return q;
  }

private:
  bool straight_;
  int counter_ = 0;
};

} // namespace

Term Query::term() const {
  return app(pullback(y, sigma, body, omega), point);
}

rc::Gen<Query> first_order_query(bool straight_line, int depth) {
  return rc::gen::exec([straight_line, depth] {
    Builder b(straight_line);
    return b.first_order(nullptr, depth);
  });
}

rc::Gen<Query> open_query() {
  return rc::gen::exec([] {
    Builder b;
    return b.open_query(2); // the open stages make the body about twice as long
  });
}

std::vector<Query> chain_queries(const std::vector<int>& lengths, std::uint64_t seed) {
  // y : R², stages x_k = f_k(x_{k-1}, …) of random unary/binary primitives (straight line).
  // [perf] Stage k's draws do not depend on the chain's length, so a shorter chain is a prefix of
  // a longer one: the stages are drawn once, for the longest, and shared by every chain.
  std::mt19937_64 rng(seed);
  const std::vector<std::string> unary = {"sin", "cos", "tanh", "pow2"};
  const std::vector<std::string> binary = {"mult", "add", "sub"};
  const int longest = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
  std::vector<Term> prev = {proj(1, var("y", R2)), proj(2, var("y", R2))};
  std::vector<std::pair<std::string, Term>> lets;
  for (int k = 0; k < longest; ++k) {
    // local references (the last two values): a reference k stages back costs a projection path
    // of length k in the stage tuple (tuple threading, spec §9.4)
    const Term a = prev[prev.size() - 1 - rng() % 2];
    const Term b = prev[prev.size() - 1 - rng() % 2];
    const Term e = rng() % 2 ? make_prim(unary[rng() % unary.size()], a)
                             : make_prim(binary[rng() % binary.size()], pair(a, b));
    const std::string x = "x" + std::to_string(k);
    lets.emplace_back(x, e);
    prev.push_back(var(x, R));
  }
  std::vector<Query> out;
  out.reserve(lengths.size());
  for (const int stages : lengths) {
    Query q;
    q.y = "y";
    q.sigma = R2;
    q.tau = R;
    q.straight_line = true;
    const auto k = static_cast<std::size_t>(std::max(stages, 0));
    Term body = prev[k + 1]; // the last stage's value (y's second component for no stage)
    for (std::size_t i = k; i-- > 0;)
      body = let(lets[i].first, R, lets[i].second, body);
    q.body = body;
    q.cotangent = {1.0};
    q.omega = lam("u", R, covec({1.0}, R));
    q.point = pair(num(0.5), num(-0.75));
    out.push_back(std::move(q));
  }
  return out;
}

Query chain_query(int stages, std::uint64_t seed) {
  return std::move(chain_queries({stages}, seed).front());
}

rc::Gen<Query> functional_query() {
  return rc::gen::exec([] {
    Builder b;
    Query q;
    q.tau = R;
    q.cotangent = {1.0};
    q.omega = lam("u", R, covec({1.0}, R));
    if (b.pick(3) == 0) { // Church list sum (Ex. 3.2, App. A.2)
      const Type f = arrow(R, arrow(R, R));
      q.y = "l";
      q.sigma = arrow(f, arrow(R, R));
      const Term l = var("l", q.sigma);
      q.body = app(app(l, lam("x", R, lam("z", R, sum({var("x", R), var("z", R)})))), num(0));
      Term list = var("d", R);
      const int n = 1 + b.pick(3);
      for (int i = 0; i < n; ++i)
        list = app(app(var("f", f), num(b.number())), list);
      q.point = lam("f", f, lam("d", R, list));
      return q;
    }
    q.y = b.name("h");
    q.sigma = arrow(R, R);
    const Term h = var(q.y, q.sigma);
    Scope closed;
    const Term arg1 = b.real(closed, 1);
    std::vector<Term> uses = {app(h, arg1), app(h, app(h, num(b.number()))),
                              make_prim("mult", pair(app(h, arg1), app(h, num(b.number()))))};
    q.body = uses[static_cast<std::size_t>(b.pick(3))];
    const std::string t = b.name("t");
    Scope ts{{t, R}};
    // a point function linear in t through a Jacobian ((𝒥f·t) c), or a random body
    q.point = b.pick(3) == 0 ? lam(t, R, app(make_jac("sin", var(t, R)), num(b.number())))
                             : lam(t, R, b.real(ts, 2));
    return q;
  });
}

rc::Gen<Query> symbolic_query() {
  return rc::gen::exec([] {
    Builder b;
    Query q = b.first_order(nullptr, 2);
    q.symbolic = true;
    q.cotangent.clear();
    if (b.pick(4) == 0) { // a body of dual type (T16 shape): the input is itself a covector
      q.sigma = R2;
      q.tau = dual(R2);
      const std::string x = b.name("x");
      q.y = b.name("y");
      q.body = dualmap(x, R2, b.linear(x, R2, R2, 2), var(q.y, dual(R2)));
      q.sigma = dual(R2);
      q.point = covec({b.number(), b.number()}, R2);
    }
    q.omega = var("om", one_form(q.tau));
    return q;
  });
}

rc::Gen<Term> closed_term() {
  return rc::gen::exec([] {
    Builder b;
    switch (b.pick(8)) {
    case 0:
    case 1:
      return (*first_order_query()).term();
    case 2:
      return (*functional_query()).term();
    case 3: {
      const Type s = b.euclid_type();
      return b.dual(s, 2);
    }
    case 4: { // rule 4: a Jacobian at a point
      Scope none;
      return app(make_jac("mult", pair(b.real(none, 1), b.real(none, 1))), b.vec2(none, 1));
    }
    case 5: { // a λ applied (β, let) at a Euclidean type
      Scope none;
      return b.real(none, 3);
    }
    default: {
      const Type s = b.euclid_type();
      return b.dual(s, 3);
    }
    }
  });
}

rc::Gen<Term> linear_term(const std::string& x, Type sigma, Type rho) {
  return rc::gen::exec([x, sigma, rho] {
    Builder b;
    return b.linear(x, sigma, rho, 3);
  });
}

rc::Gen<Term> dual_term() {
  return rc::gen::exec([] {
    Builder b;
    return b.dual(b.euclid_type(), 3);
  });
}

rc::Gen<Term> euclid_over(std::vector<std::pair<std::string, Type>> scope, Type tau, int first_name,
                          int depth) {
  return rc::gen::exec([scope, tau, first_name, depth] {
    Builder b(false, first_name);
    Scope s = scope;
    return b.euclid(s, tau, depth);
  });
}

rc::Gen<Term> linear_term_named(const std::string& x, Type sigma, Type rho, int first_name) {
  return rc::gen::exec([x, sigma, rho, first_name] {
    Builder b(false, first_name);
    return b.linear(x, sigma, rho, 2);
  });
}

rc::Gen<Term> body(const std::string& y, Type sigma, Type tau) {
  return rc::gen::exec([y, sigma, tau] {
    Builder b;
    Scope s{{y, sigma}};
    return b.euclid(s, tau, 3);
  });
}

namespace {
// The tags, in sorted order (tags_of returns them sorted), one bit each.
constexpr std::array<const char*, 10> tag_names = {
    "covector",        "dual-map",          "higher-order", "jacobian", "let",
    "nested-pullback", "partial-primitive", "pullback",     "sum",      "zero"};
enum Tag : unsigned {
  covector_tag,
  dual_map_tag,
  higher_order_tag,
  jacobian_tag,
  let_tag,
  nested_pullback_tag,
  partial_primitive_tag,
  pullback_tag,
  sum_tag,
  zero_tag,
};

void add_tags(const Term& u, int pullbacks, unsigned& tags) {
  const auto tag = [&tags](Tag t) { tags |= 1U << t; };
  switch (u->kind) {
  case Kind::pullback:
    tag(pullbacks > 0 ? nested_pullback_tag : pullback_tag);
    break;
  case Kind::dualmap:
    tag(dual_map_tag);
    break;
  case Kind::jac:
    tag(jacobian_tag);
    break;
  case Kind::covec:
    tag(covector_tag);
    break;
  case Kind::sum:
    tag(sum_tag);
    break;
  case Kind::zero:
    tag(zero_tag);
    break;
  case Kind::let:
    tag(let_tag);
    if (u->kids[0]->kind == Kind::lam) tag(higher_order_tag); // a let-bound λ
    break;
  case Kind::app:
    // a function variable applied, or a function argument (its type asked only while it can
    // still add the tag: type_of walks the argument)
    if ((tags & (1U << higher_order_tag)) == 0 &&
        (u->kids[0]->kind == Kind::var || is_arrow(type_of(u->kids[1]))))
      tag(higher_order_tag);
    break;
  case Kind::prim:
    if (u->name == "log" || u->name == "sqrt" || u->name == "div") tag(partial_primitive_tag);
    break;
  default:
    break;
  }
  for (const Term& k : u->kids)
    add_tags(k, pullbacks + (u->kind == Kind::pullback ? 1 : 0), tags);
}
} // namespace

// [perf] A bit per tag and a plain recursion: asked of every trial's term, a std::function walk
// inserting strings into a std::set was 2.7% of pullback/adequacy.
std::vector<std::string> tags_of(const Term& t) {
  unsigned tags = 0;
  add_tags(t, 0, tags);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tag_names.size(); ++i)
    if (tags & (1U << i)) out.emplace_back(tag_names[i]);
  return out;
}

void showValue(const Query& q, std::ostream& os) {
  os << print(q.term());
}

} // namespace adsem::pullback::gen

namespace adsem::pullback {

void showValue(const Term& t, std::ostream& os) {
  os << print(t);
}

} // namespace adsem::pullback
