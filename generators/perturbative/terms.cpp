#include "generators/perturbative/terms.hpp"

#include <algorithm>
#include <set>

#include "generators/core/uniform.hpp"
#include "generators/core/weighted_choice.hpp"
#include "semantics/perturbative/constants.hpp"
#include "semantics/perturbative/substitution.hpp"
#include "syntax/perturbative/printer.hpp"

namespace adsem::perturbative::gen {

namespace {

using adsem::gen::option;

const Type R = real_type();
Type RxR() {
  return product_type(real_type(), real_type());
}
Type RtoR() {
  return arrow_type(real_type(), real_type());
}

bool type_is(const Type& a, const Type& b) {
  return same_type(a, b);
}

// The first constant (table order) of type sigma, or none. The constants' types are built once:
// asking constant_types() per name at every arrow-typed node was a twentieth of a trial.
const std::string* first_constant_of(const Type& sigma) {
  static const std::vector<std::pair<std::string, Type>> typed = [] {
    std::vector<std::pair<std::string, Type>> out;
    for (const std::string& c : constant_names())
      out.emplace_back(c, *constant_types()(c));
    return out;
  }();
  for (const auto& [name, type] : typed)
    if (type_is(type, sigma)) return &name;
  return nullptr;
}

// Draws: every choice is a RapidCheck value, so RapidCheck shrinks the choices too.
class Builder {
public:
  // Fresh binders x<n> start past every x<n> of gamma: the templates below wrap terms drawn in
  // gamma with new binders (derivative_of_curried binds `name` around h and b), so a fresh name
  // that gamma already has would capture its occurrences. (Reached when gamma holds binders of
  // another Builder, as the rule checker's instances do: the scope at a hole in a generated
  // context, docs/rules/perturbative.md.)
  Builder(int max_depth, const Context& gamma) : max_depth_(max_depth) {
    for (const auto& [name, type] : gamma)
      if (name.size() > 1 && name[0] == 'x' && name.size() < 9 &&
          std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; }))
        next_ = std::max(next_, std::stoi(name.substr(1)) + 1);
  }

  Term term(Context& g, const Type& sigma, int d) {
    // (weight, production): only productions applicable at σ and d have a positive weight.
    const std::vector<std::string> vars = visible(g, sigma);
    const bool real = sigma->kind == TypeNode::Kind::real, product = is_product(sigma),
               arrow = is_arrow(sigma), deeper = d > 0;
    const bool tangent_shape = arrow && is_product(sigma->left) && is_product(sigma->right) &&
                               same_type(sigma->left->left, sigma->left->right) &&
                               same_type(sigma->right->left, sigma->right->right);
    const std::string* constant = arrow && deeper ? first_constant_of(sigma) : nullptr;
    return adsem::gen::choose(
        [this](int total) { return pick(total); },
        option(vars.empty() ? 0 : 40, [&] { return var(vars[pick(vars.size())], sigma); }),
        option(1, [&] { return zero(sigma); }),
        // R
        option(real ? 30 : 0, [&] { return numeral(numerals()[pick(numerals().size())]); }),
        option(real && deeper ? 20 : 0,
               [&] {
                 static const std::vector<std::string> unary = {"sin", "cos", "exp", "neg", "tanh"};
                 static const std::vector<std::string> partial = {"log", "sqrt", "recip"};
                 const bool part = pick(6) == 0;
                 const auto& names = part ? partial : unary;
                 return app(primitive(names[pick(names.size())], RtoR()), term(g, R, d - 1));
               }),
        option(real && deeper ? 20 : 0,
               [&] {
                 return app(primitive("mul", arrow_type(RxR(), R)),
                            pair(term(g, R, d - 1), term(g, R, d - 1)));
               }),
        option(real && deeper ? 10 : 0, [&] { return sum(term(g, R, d - 1), term(g, R, d - 1)); }),
        option(real && d >= 2 ? 10 : 0, [&] { return nested_derivative(g, d); }),
        option(real && d >= 2 ? 3 : 0, [&] { return derivative_of_curried(g, d); }),
        // σ₁ × σ₂
        option(product ? 40 : 0,
               [&] { return pair(term(g, sigma->left, d), term(g, sigma->right, d)); }),
        option(product ? 10 : 0,
               [&] {
                 const int k = 1 + pick(2);
                 return inj(k, sigma, term(g, component(sigma, k), d));
               }),
        // σ₁ → σ₂
        option(arrow ? 50 : 0, [&] { return lambda(g, sigma, d); }),
        option(tangent_shape && deeper ? 30 : 0,
               [&] {
                 return push(term(g, arrow_type(sigma->left->left, sigma->right->left), d - 1));
               }),
        option(constant ? 10 : 0, [&] { return primitive(*constant, sigma); }),
        option(arrow && deeper ? 4 : 0,
               [&] { return sum(term(g, sigma, d - 1), term(g, sigma, d - 1)); }),
        // every type (atomic types: only variables, 0 and these)
        option(deeper ? 25 : 0,
               [&] { // application with an intermediate type ρ
                 const Type rho = intermediate();
                 const Term f = term(g, arrow_type(rho, sigma), d - 1);
                 return app(f, term(g, rho, d - 1));
               }),
        option(deeper ? 8 : 0,
               [&] { // projection
                 const Type rho = intermediate();
                 const int k = 1 + pick(2);
                 const Type p = k == 1 ? product_type(sigma, rho) : product_type(rho, sigma);
                 return proj(k, term(g, p, d - 1));
               }),
        option(deeper ? 25 : 0,
               [&] { // derivative: π1 (T f (1, a))
                 const Term f = term(g, arrow_type(R, sigma), d - 1);
                 return proj(1, app(push(f), pair(numeral(1.0), term(g, R, d - 1))));
               }),
        option(deeper && product && same_type(sigma->left, sigma->right) ? 25 : 0,
               [&] { // pushforward: T f (v, a)
                 const Type rho = intermediate();
                 const Term f = term(g, arrow_type(rho, sigma->left), d - 1);
                 return app(push(f), term(g, tangent_type(rho), d - 1));
               }));
  }

private:
  std::size_t pick(std::size_t n) {
    // Uniform whatever the size (RapidCheck scales inRange by size; depth bounds the term).
    return adsem::gen::uniform_below(n);
  }
  int pick(int n) { return static_cast<int>(pick(static_cast<std::size_t>(n))); }

  static const std::vector<double>& numerals() {
    static const std::vector<double> values = {1, 2, -1, 0.5, 1.5, -0.5, 3};
    return values;
  }

  Type intermediate() {
    const auto& pool = type_pool();
    return pool[pick(pool.size())];
  }

  static std::vector<std::string> visible(const Context& g, const Type& sigma) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (auto it = g.rbegin(); it != g.rend(); ++it) {
      if (!seen.insert(it->first).second) continue; // shadowed
      if (same_type(it->second, sigma)) out.push_back(it->first);
    }
    return out;
  }

  std::string binder(const Context& g) {
    if (!g.empty() && pick(6) == 0) return g[pick(g.size())].first; // shadowing (spec §10)
    return "x" + std::to_string(next_++);
  }

  Term lambda(Context& g, const Type& sigma, int d) {
    const std::string x = binder(g);
    g.emplace_back(x, sigma->left);
    const Term body = term(g, sigma->right, std::max(0, d - 1));
    g.pop_back();
    return lam(x, sigma->left, body);
  }

  // D(\x:R. x * D(\y:R. E[x,y], a), b) (spec §10 targeted template: nested derivative with capture)
  Term nested_derivative(Context& g, int d) {
    const std::string x = "x" + std::to_string(next_++);
    const std::string y = "x" + std::to_string(next_++);
    g.emplace_back(x, R);
    g.emplace_back(y, R);
    const Term inner_body = term(g, R, d - 2);
    g.pop_back();
    const Term inner = proj(1, app(push(lam(y, R, inner_body)), pair(numeral(1.0), term(g, R, 0))));
    const Term outer_body = app(primitive("mul", arrow_type(RxR(), R)), pair(var(x, R), inner));
    g.pop_back();
    return proj(1, app(push(lam(x, R, outer_body)), pair(numeral(1.0), term(g, R, 0))));
  }

  // (λg. g (g h) b) (π1 (T (λu:R. λf:R→R. λx:R. f (x + u)) (1, a))) (spec §10 targeted template
  // "derivative of a curried higher-order function, applied to functions that contain
  // derivatives"; the M15 pattern of spec §8, JFP 2019): the derivative's function-valued result
  // is applied to its own output, which needs the model's tag renaming.
  Term derivative_of_curried(Context& g, int d) {
    const std::string u = "x" + std::to_string(next_++);
    const std::string f = "x" + std::to_string(next_++);
    const std::string x = "x" + std::to_string(next_++);
    const Term body = app(var(f, RtoR()), sum(var(x, R), var(u, R)));
    const Term s = lam(u, R, lam(f, RtoR(), lam(x, R, body)));
    const Term derivative = proj(1, app(push(s), pair(numeral(1.0), term(g, R, 0))));
    const Term h = term(g, RtoR(), d - 2);
    const Term b = term(g, R, 0);
    // let-bound, as in M15: ONE closure (one tag) used twice
    const std::string name = "x" + std::to_string(next_++);
    const Type gt = arrow_type(RtoR(), RtoR());
    const Term gv = var(name, gt);
    return app(lam(name, gt, app(app(gv, app(gv, h)), b)), derivative);
  }

  int max_depth_;
  int next_ = 0;
};

void shrinks_of(const Term& m, std::vector<Term>& out, std::size_t limit);

std::vector<Term> shrinks_of_simple(const SimpleP& s, std::size_t limit) {
  std::vector<Term> out;
  switch (s->kind) {
  case Kind::numeral:
    if (s->value != 1.0) out.push_back(numeral(1.0));
    break;
  case Kind::lam:
  case Kind::push:
  case Kind::inj:
  case Kind::proj: {
    std::vector<Term> inner;
    shrinks_of(single(s->operand), inner, limit);
    for (const Term& v : inner)
      out.push_back(with_operand(*s, v));
    break;
  }
  case Kind::app: {
    if (s->operand->kind == Kind::lam) // contract the β-redex
      out.push_back(substitute(*s->operand->operand, s->operand->name, s->argument));
    for (const SimpleP& a : s->argument->items) // inline a same-typed argument
      if (same_type(a->type, s->type)) out.push_back(single(a));
    std::vector<Term> inner;
    shrinks_of(s->argument, inner, limit);
    for (const Term& v : inner)
      out.push_back(with_argument(*s, v));
    inner.clear();
    shrinks_of(single(s->operand), inner, limit);
    for (const Term& v : inner)
      out.push_back(app(v, s->argument));
    break;
  }
  default:
    break;
  }
  return out;
}

void shrinks_of(const Term& m, std::vector<Term>& out, std::size_t limit) {
  if (out.size() >= limit) return;
  if (!m.items.empty()) out.push_back(zero(m.type));
  if (m.items.size() > 1)
    for (std::size_t i = 0; i < m.items.size(); ++i) {
      Term dropped = zero(m.type);
      for (std::size_t k = 0; k < m.items.size(); ++k)
        if (k != i) dropped.items.push_back(m.items[k]);
      out.push_back(dropped);
    }
  for (std::size_t i = 0; i < m.items.size() && out.size() < limit; ++i)
    for (const Term& v : shrinks_of_simple(m.items[i], limit)) {
      Term replaced = zero(m.type);
      for (std::size_t k = 0; k < m.items.size(); ++k)
        replaced = k == i ? sum(replaced, v) : sum(replaced, single(m.items[k]));
      out.push_back(replaced);
      if (out.size() >= limit) return;
    }
}

struct TagScan {
  std::set<std::string> tags;
  int push_depth = 0;
  void bag(const Term& m) {
    if (m.items.size() > 1) tags.insert("sum");
    for (const SimpleP& s : m.items)
      simple(*s);
  }
  void simple(const Simple& s) {
    switch (s.kind) {
    case Kind::push:
      tags.insert(push_depth > 0 ? "nested-T" : "T");
      tags.insert("T");
      ++push_depth;
      simple(*s.operand);
      --push_depth;
      return;
    case Kind::lam:
      tags.insert("lambda");
      if (is_arrow(s.binder_type) || is_arrow(s.operand->type)) tags.insert("higher-order");
      simple(*s.operand);
      return;
    case Kind::app:
      if (is_arrow(s.argument->type)) tags.insert("higher-order");
      simple(*s.operand);
      bag(s.argument);
      return;
    case Kind::inj:
      tags.insert("pair");
      simple(*s.operand);
      return;
    case Kind::proj:
      simple(*s.operand);
      return;
    default:
      return;
    }
  }
};

} // namespace

const std::vector<Type>& type_pool() {
  static const std::vector<Type> pool = {R,
                                         R,
                                         R,
                                         RxR(),
                                         RtoR(),
                                         RtoR(),
                                         arrow_type(RxR(), R),
                                         arrow_type(RtoR(), R),
                                         arrow_type(R, RtoR())};
  return pool;
}

const std::vector<Type>& ground_pool() {
  static const std::vector<Type> pool = {R, R, R, RxR(), product_type(RxR(), R)};
  return pool;
}

rc::Gen<Term> term(Context gamma, Type sigma, int max_depth) {
  return rc::gen::shrink(rc::gen::withSize([gamma, sigma, max_depth](int size) {
                           const int depth = std::min(max_depth, 2 + size / 25);
                           return rc::gen::exec([gamma, sigma, depth] {
                             Context g = gamma;
                             return Builder(depth, g).term(g, sigma, depth);
                           });
                         }),
                         [](const Term& m) { return rc::seq::fromContainer(shrinks(m)); });
}

rc::Gen<Term> closed_term(std::vector<Type> types, int max_depth) {
  return rc::gen::mapcat(rc::gen::elementOf(types),
                         [max_depth](const Type& t) { return term({}, t, max_depth); });
}

std::vector<Term> shrinks(const Term& m) {
  std::vector<Term> out;
  shrinks_of(m, out, 64);
  return out;
}

std::vector<std::string> tags_of(const Term& m) {
  TagScan scan;
  scan.bag(m);
  return {scan.tags.begin(), scan.tags.end()};
}

} // namespace adsem::perturbative::gen

namespace adsem::perturbative {

void showValue(const Term& m, std::ostream& os) {
  os << print(m) << " : " << print_type(m.type);
}

} // namespace adsem::perturbative
