#include "generators/delta_reverse/terms.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <string_view>

#include "generators/core/uniform.hpp"
#include "syntax/delta_reverse/printer.hpp"
#include "syntax/delta_reverse/signature.hpp"

namespace adsem::delta_reverse::gen {

namespace {

using TK = TypeNode::Kind;

Type R() {
  return real_type();
}
Type RR() {
  return product_type(real_type(), real_type());
}

std::size_t pick(std::size_t n) {
  return adsem::gen::uniform_below(n);
}

double literal() {
  static const std::vector<double> values = {1.0, 2.0, 0.5, -1.0, 1.5, -0.5, 3.0, 0.25};
  return values[pick(values.size())];
}

class Builder {
public:
  Term term(Context& g, const Type& a, int d) {
    // [perf] The ways this node can be built, with their weights, in the order they are offered;
    // the drawn one is built by the switch below (no std::function per way and node). Drawing the
    // index first and the way's own choices after keeps the draws, and so the terms, as before.
    enum class Way {
      reachable,
      intro,
      binary,
      unary,
      from_int,
      branch,
      let,
      apply,
      case_,
      proj,
      index,
      sum_v
    };
    std::array<std::pair<int, Way>, 12> options{};
    std::size_t offered = 0;
    const auto offer = [&](int w, Way way) { options[offered++] = {w, way}; };

    // The ways are counted only when this option is drawn (measured: building them at every node
    // was a fifth of a delta-reverse adequacy trial); counting draws nothing, so the terms are
    // the same.
    const bool reach = any_reachable(g, a);
    if (reach) offer(30, Way::reachable);
    offer(reach ? 4 : 12, Way::intro);
    if (d > 0) {
      if (a->kind == TK::real) {
        offer(26, Way::binary);
        offer(12, Way::unary);
        offer(3, Way::from_int);
        offer(6, Way::branch);
      }
      offer(14, Way::let);
      offer(10, Way::apply);
      offer(6, Way::case_);
      offer(4, Way::proj);
      if (arrays_) offer(8, Way::index);
      // offered last, so the other ways' draws are as before wherever it is not offered
      if (arrays_ && a->kind == TK::real) offer(4, Way::sum_v);
    }
    int total = 0;
    for (std::size_t i = 0; i < offered; ++i)
      total += options[i].first;
    int r = static_cast<int>(pick(static_cast<std::size_t>(total)));
    std::size_t chosen = 0;
    while (r >= options[chosen].first)
      r -= options[chosen++].first;
    switch (options[chosen].second) {
    case Way::reachable:
      return draw_reachable(g, a);
    case Way::intro:
      return intro(g, a, d);
    case Way::binary: { // binary primitive (+, -, * ; / near its boundary, rarely)
      static const std::vector<std::string> ops = {"addR", "mulR", "subR", "mulR", "addR"};
      const bool partial = partials_ && pick(12) == 0;
      const std::string op = partial ? "divR" : ops[pick(ops.size())];
      Term x = term(g, R(), d - 1);
      return call(op, x, term(g, R(), d - 1));
    }
    case Way::unary: { // unary primitive (log, sqrt partial, rarely)
      static const std::vector<std::string> ops = {"sin", "cos", "exp", "tanh", "negR"};
      static const std::vector<std::string> partial = {"log", "sqrt"};
      const bool part = partials_ && pick(8) == 0;
      const auto& names = part ? partial : ops;
      Term x = term(g, R(), d - 1);
      if (names[0] == "exp") x = call("tanh", x); // keep exp's argument bounded
      return call(names[pick(names.size())], x);
    }
    case Way::from_int:
      return call("fromInt", term(g, int_type(), d - 1));
    case Way::branch: { // control flow on a real comparison (piecewise, spec §9.8)
      Term c = call("ltR", term(g, R(), d - 1), term(g, R(), d - 1));
      return case_of(c, fresh(), term(g, a, d - 1), fresh(), term(g, a, d - 1));
    }
    case Way::let:
      return let_in(g, a, d);
    case Way::apply: { // application of a λ or a helper
      const Type b = small_type();
      Term f = term(g, arrow_type(b, a), d - 1);
      return app(f, term(g, b, d - 1));
    }
    case Way::case_: {
      const Type b = small_type(), c = small_type();
      Term e0 = term(g, sum_type(b, c), d - 1);
      const std::string x1 = fresh(), x2 = fresh();
      g.emplace_back(x1, b);
      Term e1 = term(g, a, d - 1);
      g.back() = {x2, c};
      Term e2 = term(g, a, d - 1);
      g.pop_back();
      return case_of(e0, x1, e1, x2, e2);
    }
    case Way::proj: {
      const Type b = small_type();
      return pick(2) == 0 ? fst(term(g, product_type(a, b), d - 1))
                          : snd(term(g, product_type(b, a), d - 1));
    }
    case Way::index: { // every generated vector has at least two elements (intro)
      Term v = term(g, vector_type(a), d - 1);
      return app(index_op(a), pair(v, integer(static_cast<std::int64_t>(pick(2)))));
    }
    case Way::sum_v: // sumV v (spec §9.12, an extension): the vector's every element is used
      return app(sum_v_op(R()), term(g, vector_type(R()), d - 1));
    }
    return intro(g, a, 0);
  }

  // The introduction form of a (depth 0: literals and variables only inside).
  Term intro(Context& g, const Type& a, int d) {
    switch (a->kind) {
    case TK::real:
      return real(literal());
    case TK::integer:
      return integer(static_cast<std::int64_t>(pick(7)) - 3);
    case TK::product: {
      Term x = term(g, a->left, std::max(0, d - 1));
      return pair(x, term(g, a->right, std::max(0, d - 1)));
    }
    case TK::sum:
      return pick(2) == 0 ? inl(a->right, term(g, a->left, std::max(0, d - 1)))
                          : inr(a->left, term(g, a->right, std::max(0, d - 1)));
    case TK::arrow: {
      const std::string x = fresh();
      g.emplace_back(x, a->left);
      Term body = term(g, a->right, std::max(0, d - 1));
      g.pop_back();
      return lam(x, a->left, body);
    }
    case TK::vector: { // build[A] (n, λi. let y = fromInt i * r in e), n in 2..4 (§10.2)
      // y is a real whose derivative differs from element to element (r is mostly a variable
      // in scope), so the elements' tape bindings differ: elements alike would hide a tape that
      // mixes up their bindings
      const auto n = static_cast<std::int64_t>(2 + pick(3));
      const std::string i = fresh(), y = fresh();
      g.emplace_back(i, int_type());
      Term scaled = call("mulR", call("fromInt", var(i)), term(g, R(), 0));
      g.emplace_back(y, R());
      Term body = term(g, a->left, std::max(0, d - 1));
      g.pop_back();
      g.pop_back();
      return app(build_op(a->left),
                 pair(integer(n), lam(i, int_type(), let(y, std::move(scaled), body))));
    }
    default:
      return real(0.0);
    }
  }

  // let x = e1 in e2, with x often used several times (sharing stress, spec §10)
  Term let_in(Context& g, const Type& a, int d) {
    const Type b = arrays_ && pick(2) == 0 ? vector_type(small_type())
                   : pick(4) == 0          ? small_type()
                                           : R();
    Term e1 = term(g, b, d - 1);
    const std::string x = fresh();
    g.emplace_back(x, b);
    Term e2 = term(g, a, d - 1);
    if (b->kind == TK::real && a->kind == TK::real && pick(3) == 0)
      e2 = call(pick(2) == 0 ? "addR" : "mulR", e2, var(x)); // a second use of x
    g.pop_back();
    return let(x, e1, e2);
  }

  Type small_type() {
    static const std::vector<Type> pool = {R(),
                                           R(),
                                           RR(),
                                           int_type(),
                                           sum_type(R(), R()),
                                           arrow_type(R(), R()),
                                           product_type(R(), int_type())};
    return pool[pick(pool.size())];
  }

  std::string fresh() { return "v" + std::to_string(next_++); }
  // Fresh names must not shadow a variable of a given context (v0, v1, ... of an enclosing
  // term, for terms generated into a hole of another generated term).
  void avoid(const Context& g) {
    for (const auto& entry : g) {
      const std::string& x = entry.first;
      if (x.size() < 2 || x[0] != 'v' ||
          !std::all_of(x.begin() + 1, x.end(), [](char c) { return c >= '0' && c <= '9'; }))
        continue;
      if (x.size() < 9) next_ = std::max(next_, std::stoi(x.substr(1)) + 1);
    }
  }

  // Γ-variables reaching type a through projections, and helper functions applied to a generated
  // argument (goal-directed elimination, spec §10). [perf] The ways are counted, one is
  // drawn, and only that one is built (building every way as a closure was a sixth of a
  // delta-reverse adequacy trial); the ways are numbered in the order of the walk, and an
  // argument is drawn only for the chosen way, so the draws and the terms are the same as before.
  Term draw_reachable(const Context& g, const Type& a) {
    std::size_t ways = 0;
    for (auto it = g.rbegin(); it != g.rend(); ++it)
      if (!shadowed(g, it)) ways += count_ways(it->second, a, 3);
    std::size_t k = pick(ways);
    std::string head;
    std::vector<Elimination> steps;
    for (auto it = g.rbegin(); it != g.rend() && head.empty(); ++it) {
      if (shadowed(g, it)) continue;
      if (select_way(it->second, a, 3, k, steps)) head = it->first;
    }
    Term t = var(head);
    for (const Elimination& e : steps) {
      if (e.kind == Elimination::Kind::first) {
        t = fst(t);
      } else if (e.kind == Elimination::Kind::second) {
        t = snd(t);
      } else { // a helper applied to an argument of depth 0 (a variable, a literal or a λ)
        ++nested_;
        Term x = term(*ctx_, e.argument, 0);
        --nested_;
        t = app(t, x);
      }
    }
    return t;
  }
  // Whether draw_reachable has a way, without counting them all (the same walk as count_ways).
  bool any_reachable(const Context& g, const Type& a) const {
    for (auto it = g.rbegin(); it != g.rend(); ++it)
      if (!shadowed(g, it) && reaches(it->second, a, 3)) return true;
    return false;
  }
  // Whether a later entry of g binds the same name (the walks go from the innermost binder out).
  // [perf] A scan of the few entries instead of a std::set per node of the generated term.
  static bool shadowed(const Context& g, Context::const_reverse_iterator it) {
    return std::any_of(g.rbegin(), it, [&](const auto& entry) { return entry.first == it->first; });
  }
  bool reaches(const Type& t, const Type& a, int budget) const {
    if (same_type(t, a)) return true;
    if (budget == 0) return false;
    if (t->kind == TK::product)
      return reaches(t->left, a, budget - 1) || reaches(t->right, a, budget - 1);
    if (t->kind == TK::arrow && ctx_ != nullptr && nested_ < 2)
      return reaches(t->right, a, budget - 1);
    return false;
  }
  // One elimination on the way from a variable to a term of the goal type.
  struct Elimination {
    enum class Kind { first, second, apply } kind;
    Type argument; // apply: the argument's type
  };
  // The ways from a variable of type t to type a: t itself, then through fst, snd or an
  // application (the order ways are numbered in).
  std::size_t count_ways(const Type& t, const Type& a, int budget) const {
    const std::size_t here = same_type(t, a) ? 1 : 0;
    if (budget == 0) return here;
    if (t->kind == TK::product)
      return here + count_ways(t->left, a, budget - 1) + count_ways(t->right, a, budget - 1);
    if (t->kind == TK::arrow && ctx_ != nullptr && nested_ < 2)
      return here + count_ways(t->right, a, budget - 1);
    return here;
  }
  // The way number k among those of t: true and its eliminations in `steps`, or false and k less
  // the number of ways of t.
  bool select_way(const Type& t, const Type& a, int budget, std::size_t& k,
                  std::vector<Elimination>& steps) const {
    if (same_type(t, a)) {
      if (k == 0) return true;
      --k;
    }
    if (budget == 0) return false;
    if (t->kind == TK::product) {
      steps.push_back({Elimination::Kind::first, nullptr});
      if (select_way(t->left, a, budget - 1, k, steps)) return true;
      steps.back() = {Elimination::Kind::second, nullptr};
      if (select_way(t->right, a, budget - 1, k, steps)) return true;
      steps.pop_back();
    } else if (t->kind == TK::arrow && ctx_ != nullptr && nested_ < 2) {
      steps.push_back({Elimination::Kind::apply, t->left});
      if (select_way(t->right, a, budget - 1, k, steps)) return true;
      steps.pop_back();
    }
    return false;
  }

  Context* ctx_ = nullptr;
  int nested_ = 0;
  bool partials_ = true;
  bool arrays_ = false;

private:
  int next_ = 0;
};

const std::vector<Type>& input_types(bool sums) {
  static const std::vector<Type> no_sums = {R(), RR(), product_type(R(), RR()),
                                            product_type(R(), int_type()), product_type(RR(), R())};
  static const std::vector<Type> with_sums = {R(),
                                              RR(),
                                              product_type(R(), RR()),
                                              product_type(R(), int_type()),
                                              product_type(sum_type(R(), R()), R()),
                                              sum_type(R(), RR())};
  return sums ? with_sums : no_sums;
}

const std::vector<Type>& output_types() {
  static const std::vector<Type> pool = {
      R(), R(), R(), R(), R(), R(), RR(), RR(), product_type(R(), int_type()), sum_type(R(), R())};
  return pool;
}

} // namespace

const std::vector<Type>& type_pool() {
  static const std::vector<Type> pool = {R(),
                                         int_type(),
                                         RR(),
                                         sum_type(R(), R()),
                                         arrow_type(R(), R()),
                                         arrow_type(RR(), R()),
                                         product_type(R(), arrow_type(R(), R())),
                                         arrow_type(arrow_type(R(), R()), R()),
                                         sum_type(int_type(), RR())};
  return pool;
}

rc::Gen<MainExpression> main_expression(Options options) {
  return rc::gen::exec([options] {
    Builder b;
    b.partials_ = options.partial_primitives;
    b.arrays_ = options.arrays;
    const auto& inputs = input_types(options.sums_in_input);
    const Type s = inputs[pick(inputs.size())];
    const Type t = options.real_output ? R() : output_types()[pick(output_types().size())];
    Context g = options.scope;
    b.avoid(g);
    b.ctx_ = &g;
    std::vector<std::pair<std::string, Term>> helpers;
    // helpers in front of the main λ (L117-121)
    const std::size_t least = static_cast<std::size_t>(std::clamp(options.min_helpers, 0, 2));
    const std::size_t n_helpers = least + pick(3 - least);
    for (std::size_t i = 0; i < n_helpers; ++i) {
      const std::string h = b.fresh();
      Term def;
      Type ht;
      switch (pick(4)) {
      case 0: // a real computed before the λ is applied (Ex. 12)
        ht = R();
        def = b.term(g, R(), 1);
        break;
      case 1: { // twice (higher-order)
        ht = arrow_type(arrow_type(R(), R()), arrow_type(R(), R()));
        def = lam("f", arrow_type(R(), R()), lam("y", R(), app(var("f"), app(var("f"), var("y")))));
        break;
      }
      default: // a first-order helper R -> R or R*R -> R
        ht = pick(2) == 0 ? arrow_type(R(), R()) : arrow_type(RR(), R());
        def = b.intro(g, ht, options.depth - 1);
        break;
      }
      helpers.emplace_back(h, def);
      g.emplace_back(h, ht);
    }
    const std::string x = b.fresh();
    g.emplace_back(x, s);
    Term body = b.term(g, t, options.depth + static_cast<int>(pick(2))); // depth 3 or 4
    g.pop_back();
    Term e = lam(x, s, body);
    for (std::size_t i = helpers.size(); i-- > 0;)
      e = let(helpers[i].first, helpers[i].second, e);
    MainExpression m{e, s, t, tags_of(e)};
    if (!helpers.empty()) m.tags.push_back("helper");
    std::function<bool(const Type&)> has_sum = [&](const Type& ty) {
      return ty->kind == TK::sum ||
             (ty->kind == TK::product && (has_sum(ty->left) || has_sum(ty->right)));
    };
    if (has_sum(s)) m.tags.push_back("sum-input");
    return m;
  });
}

rc::Gen<Term> term(Context gamma, Type a, int depth) {
  return rc::gen::exec([gamma, a, depth] {
    Builder b;
    Context g = gamma;
    b.avoid(g);
    b.ctx_ = &g;
    return b.term(g, a, depth);
  });
}

rc::Gen<Term> delta_term(std::vector<std::int64_t> ids, Context scope, int depth) {
  return rc::gen::exec([ids, scope, depth] {
    Builder b;
    Context g = scope;
    b.avoid(g);
    b.ctx_ = &g;
    std::function<Term(int)> go = [&](int d) -> Term {
      const std::size_t k = pick(d > 0 ? 4 : 2);
      if (k == 1 && !ids.empty()) return node(Kind::d_var, {integer(ids[pick(ids.size())])});
      if (k == 2) {
        Term r = b.term(g, R(), 0);
        return node(Kind::d_scale, {r, go(d - 1)});
      }
      if (k == 3) {
        Term u = go(d - 1);
        return node(Kind::d_add, {u, go(d - 1)});
      }
      return node(Kind::d_zero, {});
    };
    return go(depth);
  });
}

rc::Gen<Typed> closed_term(int depth) {
  return rc::gen::exec([depth] {
    const Type a = type_pool()[pick(type_pool().size())];
    Builder b;
    Context g;
    b.ctx_ = &g;
    const Term t = b.term(g, a, depth);
    return Typed{a, t};
  });
}

rc::Gen<Value> value_of(Type t) {
  return rc::gen::exec([t] {
    std::function<Value(const Type&)> go = [&](const Type& ty) -> Value {
      switch (ty->kind) {
      case TK::real:
        return v_real(adsem::gen::uniform_in(-2000, 2001) / 1000.0);
      case TK::integer:
        return v_int(adsem::gen::uniform_in(-5, 6));
      case TK::product: {
        Value a = go(ty->left);
        return v_pair(a, go(ty->right));
      }
      case TK::sum:
        return pick(2) == 0 ? v_inl(go(ty->left)) : v_inr(go(ty->right));
      default:
        return v_real(0.0);
      }
    };
    return go(t);
  });
}

rc::Gen<Value> tangent_like(Value v) {
  return rc::gen::exec([v] {
    std::function<Value(const Value&)> go = [&](const Value& at) -> Value {
      using VK = ValueNode::Kind;
      switch (at->kind) {
      case VK::real:
        return v_real(adsem::gen::uniform_in(-1000, 1001) / 1000.0);
      case VK::pair: {
        Value a = go(at->a);
        return v_pair(a, go(at->b));
      }
      case VK::inl:
        return v_inl(go(at->a));
      case VK::inr:
        return v_inr(go(at->a));
      default:
        return at;
      }
    };
    return go(v);
  });
}

std::vector<std::string> tags_of(const Term& t) {
  // [perf] Flags and a sorted list of variable occurrences instead of a std::set and a std::map
  // per generated term; the tags come out in the set's (alphabetical) order as before.
  bool branch = false, has_case = false, higher_order = false, has_let = false, array = false,
       sum_v = false;
  std::vector<std::string_view> used;
  std::vector<std::string_view> let_bound;
  std::vector<const Node*> stack = {t.get()};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    switch (n->kind) {
    case Kind::let:
      has_let = true;
      let_bound.push_back(n->name);
      break;
    case Kind::case_:
      has_case = true;
      break;
    case Kind::lam:
      higher_order = higher_order || n->type->kind == TK::arrow;
      break;
    case Kind::var:
      used.push_back(n->name);
      break;
    case Kind::prim:
      branch = branch || n->name == "ltR";
      break;
    case Kind::index:
    case Kind::build:
      array = true;
      break;
    case Kind::sum_v:
      array = sum_v = true;
      break;
    default:
      break;
    }
    for (const Term& k : n->kids)
      stack.push_back(k.get());
  }
  std::sort(used.begin(), used.end());
  const bool shared_let = std::any_of(let_bound.begin(), let_bound.end(), [&](std::string_view x) {
    const auto [from, to] = std::equal_range(used.begin(), used.end(), x);
    return to - from >= 2;
  });
  std::vector<std::string> tags;
  if (array) tags.emplace_back("array");
  if (branch) tags.emplace_back("branch-on-real");
  if (has_case) tags.emplace_back("case");
  if (higher_order) tags.emplace_back("higher-order");
  if (has_let) tags.emplace_back("let");
  if (shared_let) tags.emplace_back("shared-let");
  if (sum_v) tags.emplace_back("sum-v");
  return tags;
}

void showValue(const MainExpression& m, std::ostream& os) {
  os << print(m.term) << " : " << print_type(arrow_type(m.s, m.t));
}

} // namespace adsem::delta_reverse::gen

namespace adsem::delta_reverse {

void showValue(const Typed& t, std::ostream& os) {
  os << print(t.term) << " : " << print_type(t.type);
}
void showValue(const Term& t, std::ostream& os) {
  os << print(t);
}
void showValue(const Value& v, std::ostream& os) {
  os << print_value(v, nullptr);
}

} // namespace adsem::delta_reverse
