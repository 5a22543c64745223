#include "semantics/delta_reverse/machine.hpp"

#include <limits>

#include "semantics/core/primitives.hpp"
#include "semantics/delta_reverse/derivative_rules.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {

using VK = ValueNode::Kind;

constexpr int max_depth = 20'000;

[[noreturn]] void stuck(const std::string& what, const Term& t) {
  throw AdsemError(ErrorKind::eval, "stuck: " + what, t->pos);
}

std::string excerpt(const Term& t) {
  std::string s = print(t);
  if (s.size() > 100) s = s.substr(0, 97) + "...";
  return s;
}

class DepthScope {
public:
  DepthScope(int& depth, const Term& t) : depth_(depth) {
    if (++depth_ > max_depth) {
      --depth_;
      throw AdsemError(ErrorKind::eval,
                       "evaluation nested deeper than " + std::to_string(max_depth), t->pos);
    }
  }
  ~DepthScope() { --depth_; }
  DepthScope(const DepthScope&) = delete;
  DepthScope& operator=(const DepthScope&) = delete;

private:
  int& depth_;
};

} // namespace

Value Machine::eval(const Env& start_env, const Term& start) {
  Env env = start_env;
  Term t = start;
  const DepthScope scope(depth_, t);
  for (;;) {
    const Node& n = *t;
    const auto fire = [&](Step r) {
      if (ledger_.trace)
        ledger_.fire(r, [&] { return excerpt(t); });
      else
        ledger_.fire(r);
    };
    switch (n.form) {
    case Form::var: {
      fire(Step::E_Var);
      for (const EnvNode* at = env.get(); at != nullptr; at = at->next.get())
        if (at->name == n.name) return at->value;
      stuck("unbound variable " + n.name, t);
    }
    case Form::lam:
      fire(Step::E_Lam);
      return v_closure(env, n.name, n.kids[0]);
    case Form::app: {
      fire(Step::E_App);
      const Value f = eval(env, n.kids[0]); // function first (L456-470)
      const Value a = eval(env, n.kids[1]);
      if (f->kind == VK::prim) return apply(f, a);
      if (f->kind != VK::closure) stuck("applying a non-function", t);
      env = extend(f->env, f->name, a);
      t = f->body;
      continue;
    }
    case Form::let: {
      fire(Step::E_Let);
      const Value v = eval(env, n.kids[0]);
      env = extend(env, n.name, v);
      t = n.kids[1];
      continue;
    }
    case Form::pair: {
      fire(Step::E_Pair);
      const Value a = eval(env, n.kids[0]); // left component first
      const Value b = eval(env, n.kids[1]);
      return v_pair(a, b);
    }
    case Form::fst:
    case Form::snd: {
      fire(n.form == Form::fst ? Step::E_Fst : Step::E_Snd);
      const Value v = eval(env, n.kids[0]);
      if (v->kind != VK::pair) stuck("projection of a non-pair", t);
      return n.form == Form::fst ? v->a : v->b;
    }
    case Form::inl:
      fire(Step::E_Inl);
      return v_inl(eval(env, n.kids[0]));
    case Form::inr:
      fire(Step::E_Inr);
      return v_inr(eval(env, n.kids[0]));
    case Form::case_: {
      const Value v = eval(env, n.kids[0]);
      if (v->kind == VK::inl) {
        fire(Step::E_Case_Inl);
        env = extend(env, n.name, v->a);
        t = n.kids[1];
      } else if (v->kind == VK::inr) {
        fire(Step::E_Case_Inr);
        env = extend(env, n.name2, v->a);
        t = n.kids[2];
      } else {
        stuck("case on a non-injection", t);
      }
      continue;
    }
    case Form::real:
      fire(Step::E_Real);
      return v_real(n.real);
    case Form::integer:
      fire(Step::E_Leaf);
      return v_int(n.integer);
    case Form::prim:
      fire(Step::E_Op);
      return v_prim(n.name);
    case Form::proj:
      stuck("unelaborated projection (type-check the term first)", t);
    case Form::pure:
    case Form::bind:
    case Form::delta_let:
      fire(Step::E_Comp);
      return v_comp(env, t);
    default:
      return eval_delta_form(env, t);
    }
  }
}

Value Machine::eval_delta_form(const Env& env, const Term& t) {
  const Node& n = *t;
  ledger_.fire(Step::E_Delta);
  const auto real_of = [&](const Term& k) {
    const Value v = eval(env, k);
    if (v->kind != VK::real) stuck("a Scale coefficient is not a real", t);
    return v->real;
  };
  const auto delta_of = [&](const Term& k) {
    const Value v = eval(env, k);
    if (v->kind != VK::delta) stuck("expected a Delta", t);
    return v->delta;
  };
  const auto dense_of = [&](const Term& k) {
    const Value v = eval(env, k);
    if (v->kind != VK::dense) stuck("expected a dense tangent", t);
    return v->dense;
  };
  switch (n.form) {
  case Form::d_zero:
  case Form::d2_zero:
    return v_delta(d_zero());
  case Form::d_scale:
  case Form::d2_scale: {
    const double r = real_of(n.kids[0]);
    return v_delta(d_scale(r, delta_of(n.kids[1])));
  }
  case Form::d_add:
  case Form::d2_add: {
    const Delta a = delta_of(n.kids[0]);
    return v_delta(d_add(a, delta_of(n.kids[1])));
  }
  case Form::d_var:
  case Form::d2_onehot: {
    const Value v = eval(env, n.kids[0]);
    if (v->kind != VK::integer) stuck("expected an id", t);
    return v_delta(n.form == Form::d_var ? d_var(v->integer) : d_onehot(v->integer));
  }
  case Form::s_zero:
    ledger_.fire(Step::Dense_Zero);
    counters.dense_flops += dense_dimension;
    return v_dense(std::vector<double>(static_cast<std::size_t>(dense_dimension), 0.0));
  case Form::s_oplus: {
    const auto a = dense_of(n.kids[0]);
    const auto b = dense_of(n.kids[1]);
    ledger_.fire(Step::Dense_Oplus);
    if (a->size() != b->size()) stuck("⊕ of tangents of different dimensions", t);
    std::vector<double> out(a->size());
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = (*a)[i] + (*b)[i];
    counters.dense_flops += static_cast<long>(out.size());
    return v_dense(std::move(out));
  }
  case Form::s_otimes: {
    const double r = real_of(n.kids[0]);
    const auto b = dense_of(n.kids[1]);
    ledger_.fire(Step::Dense_Otimes);
    std::vector<double> out(b->size());
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = r * (*b)[i];
    counters.dense_flops += static_cast<long>(out.size());
    return v_dense(std::move(out));
  }
  default:
    stuck("unknown term form", t);
  }
}

Value Machine::apply(const Value& f, const Value& a) {
  if (f->kind == VK::prim) {
    ledger_.fire(Step::E_Apply_Op, [&] { return f->name; });
    return apply_prim(f->name, a);
  }
  if (f->kind != VK::closure) throw AdsemError(ErrorKind::eval, "stuck: applying a non-function");
  return eval(extend(f->env, f->name, a), f->body);
}

Value Machine::apply_prim(const std::string& op, const Value& a) {
  const auto bad = [&]() -> Value {
    throw AdsemError(ErrorKind::eval,
                     "stuck: " + op + " applied to an argument of the wrong shape");
  };
  const auto boolean = [](bool b) { return b ? v_inl(v_int(0)) : v_inr(v_int(0)); };
  std::vector<double> reals;
  if (a->kind == VK::real) {
    reals = {a->real};
  } else if (a->kind == VK::pair && a->a->kind == VK::real && a->b->kind == VK::real) {
    reals = {a->a->real, a->b->real};
  }
  if (find_derivative_rule(op) != nullptr) {
    // the shared table's definition (design.md "Primitives: one table")
    const Primitive& p = primitives().at(op);
    if (reals.size() != p.arity()) return bad();
    ++counters.real_prim_calls;
    return v_real(p.apply1<double>(reals));
  }
  if (op == "ltR") { // partial: undefined at equality (the shared predicate `less`)
    if (reals.size() != 2) return bad();
    return boolean(primitives().at("less").holds<double>(reals));
  }
  if (op == "fromInt") {
    if (a->kind != VK::integer) return bad();
    return v_real(static_cast<double>(a->integer));
  }
  if (a->kind != VK::pair || a->a->kind != VK::integer || a->b->kind != VK::integer) return bad();
  const std::int64_t x = a->a->integer, y = a->b->integer;
  std::int64_t r = 0;
  bool overflow = false;
  if (op == "addZ")
    overflow = __builtin_add_overflow(x, y, &r);
  else if (op == "subZ")
    overflow = __builtin_sub_overflow(x, y, &r);
  else if (op == "mulZ")
    overflow = __builtin_mul_overflow(x, y, &r);
  else if (op == "eqZ")
    return boolean(x == y);
  else if (op == "ltZ")
    return boolean(x < y);
  else
    throw AdsemError(ErrorKind::eval, "unknown primitive " + op);
  if (overflow) throw AdsemError(ErrorKind::domain, op + ": integer overflow");
  return v_int(r);
}

Value Machine::run(const Value& computation) {
  // The continuation stack of pending >>= (Fig. 10: m >>= k = \s -> case m s of (r, s') -> k r s').
  std::vector<std::pair<Env, const Node*>> pending;
  Value c = computation;
  for (;;) {
    if (c->kind != VK::comp) throw AdsemError(ErrorKind::eval, "stuck: running a non-computation");
    const Node& n = *c->body;
    Value result;
    switch (n.form) {
    case Form::pure: // pure x = \s -> (x, s)
      ledger_.fire(Step::M_Pure);
      result = eval(c->env, n.kids[0]);
      break;
    case Form::bind: // run e1, then the rest with x bound to its result
      ledger_.fire(Step::M_Bind);
      pending.emplace_back(c->env, &n);
      c = eval(c->env, n.kids[0]);
      continue;
    case Form::delta_let: { // deltaLet d = \(n, bs) -> (n, (n + 1, (n, d) : bs))
      const Value d = eval(c->env, n.kids[0]);
      if (d->kind != VK::delta) throw AdsemError(ErrorKind::eval, "stuck: deltaLet of a non-Delta");
      const std::int64_t id = state.next;
      ledger_.fire(Step::M_DeltaLet,
                   [&] { return std::to_string(id) + " = " + print_delta(d->delta); });
      ++state.next;
      state.binds.emplace_back(id, d->delta);
      result = v_int(id);
      break;
    }
    default:
      throw AdsemError(ErrorKind::eval, "stuck: not a computation form", n.pos);
    }
    if (pending.empty()) return result;
    const auto [env, k] = pending.back();
    pending.pop_back();
    c = eval(k->name.empty() ? env : extend(env, k->name, result), k->kids[1]);
  }
}

Value eval_closed(const Term& t, Ledger& ledger) {
  Machine m(ledger);
  return m.eval(nullptr, t);
}

} // namespace adsem::delta_reverse
