#include "generators/cross/programs.hpp"

#include <algorithm>
#include <string>

#include "generators/core/primitive_expr.hpp"
#include "generators/core/uniform.hpp"
#include "semantics/core/primitives.hpp"

namespace adsem::cross {
namespace {

const Type R = Type::real();
const Type R_to_R = Type::function(R, R);
const Type R_to_R_to_R = Type::function(R, R_to_R);
// Church lists of reals: (R -> R -> R) -> R -> R.
const Type church_list = Type::function(R_to_R_to_R, R_to_R);

// Uniform in [low, high): RapidCheck's inRange scales its range with the size, which would starve
// every later alternative of a choice at small sizes; the size goes into the term size instead.
int pick(int low, int high_exclusive) {
  return adsem::gen::uniform_in(low, high_exclusive);
}
bool coin(int percent) {
  return pick(0, 100) < percent;
}

// Builds well-typed expressions top-down, keeping the variables in scope. Binder names are
// y<k>/f<k>/c<k> with k the number of binders in scope, so no binder shadows another on a path.
class Builder {
public:
  Builder(TypeEnv env, bool higher_order) : env_(std::move(env)), higher_order_(higher_order) {}

  Expr of(const Type& t, int size) {
    if (t.is_real()) return real(size);
    if (t.is_pair()) return pair_of(t, size);
    return function_of(t, size);
  }

private:
  std::string fresh(const char* prefix) const { return prefix + std::to_string(env_.size()); }

  std::vector<std::string> vars_of(const Type& t) const {
    std::vector<std::string> out;
    for (const auto& [name, type] : env_)
      if (type == t) out.push_back(name);
    return out;
  }

  Expr literal() { return Expr::lit(pick(-8, 9) / 2.0); }

  Expr leaf(const Type& t) {
    const auto vars = vars_of(t);
    if (!vars.empty() && (!t.is_real() || coin(75))) return Expr::var(*rc::gen::elementOf(vars));
    if (t.is_real()) return literal();
    if (t.is_pair()) return Expr::pair(leaf(t.first()), leaf(t.second()));
    return function_of(t, 2);
  }

  // Binds a fresh name of type t around body(), which runs with the name in scope.
  template <class Body> Expr bind(const char* prefix, const Type& t, Expr bound, Body body) {
    const std::string x = fresh(prefix);
    env_.emplace_back(x, t);
    Expr inner = body();
    env_.pop_back();
    return Expr::let(x, t, std::move(bound), std::move(inner));
  }
  template <class Body> Expr lambda(const char* prefix, const Type& t, Body body) {
    const std::string x = fresh(prefix);
    env_.emplace_back(x, t);
    Expr inner = body();
    env_.pop_back();
    return Expr::lam(x, t, std::move(inner));
  }

  Type binder_type() {
    const int k = pick(0, 100);
    if (higher_order_ && k < 35) return k < 25 ? R_to_R : R_to_R_to_R;
    if (k < 55) return R;
    if (k < 80) return Type::pair(R, R);
    if (k < 90) return Type::pair(R, Type::pair(R, R));
    return Type::pair(Type::pair(R, R), R);
  }

  Expr let_in(const Type& t, int size) {
    const Type bt = binder_type();
    const int bound_size = std::max(1, size / 3);
    Expr bound = of(bt, bound_size);
    return bind(bt.is_function() ? "f" : "y", bt, std::move(bound),
                [&] { return of(t, std::max(1, size - 1 - bound_size)); });
  }

  // fst / snd of an expression of a pair type with t in the chosen component.
  Expr project(const Type& t, int size) {
    const Type other = coin(80) ? R : Type::pair(R, R);
    if (coin(50)) return Expr::fst(pair_of(Type::pair(t, other), size - 1));
    return Expr::snd(pair_of(Type::pair(other, t), size - 1));
  }

  Expr primitive(int size) {
    const std::string name = *rc::gen::elementOf(gen::smooth_primitive_names());
    const auto arity = static_cast<int>(primitives().at(name).arity());
    std::vector<Expr> args;
    for (int i = 0; i < arity; ++i)
      args.push_back(real(std::max(1, (size - 1) / arity)));
    return Expr::prim(name, std::move(args));
  }

  Expr real(int size) {
    if (size <= 1) return leaf(R);
    const int k = pick(0, higher_order_ ? 14 : 10);
    if (k < 6) return primitive(size);
    if (k < 8) return let_in(R, size);
    if (k < 10) return project(R, size);
    if (k < 12) return Expr::app(function_of(R_to_R, size / 2), real(size / 2));
    return fold(size);
  }

  Expr pair_of(const Type& t, int size) {
    if (size <= 2 && !vars_of(t).empty()) return leaf(t);
    const int k = pick(0, 10);
    if (k < 1 && !vars_of(t).empty()) return leaf(t);
    if (k < 2 && size > 3) return let_in(t, size);
    const int half = std::max(1, (size - 1) / 2);
    return Expr::pair(of(t.first(), half), of(t.second(), half));
  }

  // twice f = λx. f (f x) and compose f g = λx. f (g x), written out as closed λ-terms.
  Expr twice() {
    return lambda("c", R_to_R, [&] {
      const std::string f = env_.back().first;
      return lambda("c", R, [&] {
        const std::string x = env_.back().first;
        return Expr::app(Expr::var(f), Expr::app(Expr::var(f), Expr::var(x)));
      });
    });
  }
  Expr compose() {
    return lambda("c", R_to_R, [&] {
      const std::string f = env_.back().first;
      return lambda("c", R_to_R, [&] {
        const std::string g = env_.back().first;
        return lambda("c", R, [&] {
          const std::string x = env_.back().first;
          return Expr::app(Expr::var(f), Expr::app(Expr::var(g), Expr::var(x)));
        });
      });
    });
  }

  Expr function_of(const Type& t, int size) {
    const auto vars = vars_of(t);
    if (!vars.empty() && (size <= 2 || coin(30))) return Expr::var(*rc::gen::elementOf(vars));
    if (t == R_to_R && size > 4) {
      const int k = pick(0, 3);
      if (k == 0) return Expr::app(twice(), function_of(R_to_R, size - 1));
      if (k == 1)
        return Expr::app(Expr::app(compose(), function_of(R_to_R, size / 2)),
                         function_of(R_to_R, size / 2));
    }
    // A closure: λz. body, body over z and everything in scope.
    return lambda("z", t.first(), [&] { return of(t.second(), std::max(1, size - 1)); });
  }

  // A Church list [e1, ..., ek] = λc.λn. c e1 (c e2 (... (c ek n))) folded with a closure
  // λa.λb. body from an initial value.
  Expr fold(int size) {
    const int length = pick(1, 4);
    const int part = std::max(1, size / (length + 3));
    std::vector<Expr> items;
    for (int i = 0; i < length; ++i)
      items.push_back(real(part));
    Expr list = lambda("c", R_to_R_to_R, [&] {
      const std::string c = env_.back().first;
      return lambda("c", R, [&] {
        Expr acc = Expr::var(env_.back().first);
        for (auto it = items.rbegin(); it != items.rend(); ++it)
          acc = Expr::app(Expr::app(Expr::var(c), *it), std::move(acc));
        return acc;
      });
    });
    Expr combiner = function_of(R_to_R_to_R, 2 * part);
    Expr init = real(part);
    return bind("f", church_list, std::move(list), [&] {
      const std::string l = env_.back().first;
      return Expr::app(Expr::app(Expr::var(l), std::move(combiner)), std::move(init));
    });
  }

  TypeEnv env_;
  bool higher_order_;
};

rc::Gen<Program> program(bool higher_order) {
  const auto base = rc::gen::withSize([higher_order](int size) {
    return rc::gen::exec([higher_order, size] {
      Program p;
      const int inputs = pick(1, 4);
      TypeEnv env;
      for (int i = 0; i < inputs; ++i) {
        p.inputs.push_back("x" + std::to_string(i));
        env.emplace_back(p.inputs.back(), R);
      }
      Builder builder(std::move(env), higher_order);
      p.body = builder.of(R, 3 + size / 3);
      return p;
    });
  });
  return rc::gen::shrink(base, [](const Program& p) { return rc::seq::fromContainer(simpler(p)); });
}

// Every expression one step simpler than e (at the root first, then inside each child).
std::vector<Expr> simpler_exprs(const Expr& e, const std::string& first_input) {
  std::vector<Expr> out(e.args.begin(), e.args.end());
  if (e.kind != Expr::Kind::lit && e.kind != Expr::Kind::var) {
    out.push_back(Expr::var(first_input));
    out.push_back(Expr::lit(1.0));
  }
  for (std::size_t i = 0; i < e.args.size(); ++i)
    for (Expr& child : simpler_exprs(e.args[i], first_input)) {
      Expr copy = e;
      copy.args[i] = std::move(child);
      out.push_back(std::move(copy));
    }
  return out;
}

} // namespace

rc::Gen<Program> first_order_program() {
  return program(false);
}
rc::Gen<Program> higher_order_program() {
  return program(true);
}

std::vector<Program> simpler(const Program& p) {
  std::vector<Program> out;
  if (p.inputs.size() > 1) { // drop the last input when the body does not use it
    Program fewer = p;
    fewer.inputs.pop_back();
    if (well_typed(fewer)) out.push_back(std::move(fewer));
  }
  for (Expr& body : simpler_exprs(p.body, p.inputs.at(0))) {
    Program candidate{p.inputs, std::move(body)};
    if (well_typed(candidate) && !(candidate == p)) out.push_back(std::move(candidate));
  }
  return out;
}

void showValue(const Program& p, std::ostream& os) {
  os << to_string(p);
}

} // namespace adsem::cross
