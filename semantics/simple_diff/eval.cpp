#include "semantics/simple_diff/eval.hpp"

#include "semantics/simple_diff/operations.hpp"
#include "semantics/simple_diff/rd.hpp"

namespace adsem::simple_diff {

namespace {
// Re-throw a primitive's domain error at the redex's position.
template <typename F> auto at_redex(const Node& n, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const AdsemError& e) {
    if (e.diagnostic().pos || !n.pos) throw;
    throw AdsemError(e.diagnostic().kind, e.diagnostic().message, n.pos);
  }
}
} // namespace

// ---- the relation φ | ρ ⊢ M ⇒ V ------------------------------------------------------------

Value Machine::eval(const FunEnv& phi, const TermPtr& term) {
  Depth depth(*this);
  const Node& n = *term;
  const Rules& r = rules();
  switch (n.kind) {
  case NodeKind::var:
  case NodeKind::constant:
  case NodeKind::unit:
    step(Rule::O_val, &n); // (O-val)
    return value_of(n);
  case NodeKind::pair: {
    if (is_value(n)) {
      step(Rule::O_val, &n);
      return value_of(n);
    }
    // contexts <E, N> and <V, E> (Fig. 3): left component first
    Value first = eval(phi, n.a);
    if (stuck_) return first; // a stuck subterm: the placeholder passes up (see eval in .hpp)
    Value second = eval(phi, n.b);
    if (stuck_) return second;
    return Value::pair(std::move(first), std::move(second));
  }
  case NodeKind::add: { // contexts E + N, V + E, then (O-add)
    Value left = eval(phi, n.a);
    if (stuck_) return left;
    Value right = eval(phi, n.b);
    if (stuck_) return right;
    const Value args[] = {std::move(left), std::move(right)};
    return r.o_add(*this, phi, n, args);
  }
  case NodeKind::op: {
    const Value args[] = {eval(phi, n.a)};
    if (stuck_) return args[0];
    return r.o_op(*this, phi, n, args);
  }
  case NodeKind::let: {
    const Value args[] = {eval(phi, n.a)};
    if (stuck_) return args[0];
    return r.o_let(*this, phi, n, args);
  }
  case NodeKind::fst: {
    const Value args[] = {eval(phi, n.a)};
    if (stuck_) return args[0];
    return r.o_fst(*this, phi, n, args);
  }
  case NodeKind::snd: {
    const Value args[] = {eval(phi, n.a)};
    if (stuck_) return args[0];
    return r.o_snd(*this, phi, n, args);
  }
  case NodeKind::if_: { // context `if E_bool then M else N` (spec §2.5 note), then O-ift / O-iff
    const bool holds = eval_bool(phi, n.a);
    if (stuck_) return Value::unit();
    return holds ? r.o_ift(*this, phi, n, {}) : r.o_iff(*this, phi, n, {});
  }
  case NodeKind::letrec:
    return r.o_letrec(*this, phi, n, {});
  case NodeKind::call: {
    const Value args[] = {eval(phi, n.a)};
    if (stuck_) return args[0];
    return r.o_call(*this, phi, n, args);
  }
  case NodeKind::rd: { // contexts M.rd_E(x:T.N), E.rd_V(x:T.N): the point L first, then M
    Value point = eval(phi, n.b);
    if (stuck_) return point;
    Value cotangent = eval(phi, n.a);
    if (stuck_) return cotangent;
    const Value args[] = {std::move(point), std::move(cotangent)};
    return r.o_rd(*this, phi, n, args);
  }
  case NodeKind::b_true:
  case NodeKind::b_false:
  case NodeKind::pred:
    break;
  }
  stuck(ErrorKind::eval, "a boolean term where a term was expected", n);
}

bool Machine::eval_bool(const FunEnv& phi, const TermPtr& term) {
  Depth depth(*this);
  const Node& n = *term;
  switch (n.kind) {
  case NodeKind::b_true:
    step(Rule::O_bval, &n);
    return true;
  case NodeKind::b_false:
    step(Rule::O_bval, &n);
    return false;
  case NodeKind::pred: { // context pred(E), then O-pred
    const Value arg = eval(phi, n.a);
    if (stuck_) return false; // the caller checks is_stuck() before using the answer
    return rules().o_pred(*this, n, arg);
  }
  default:
    stuck(ErrorKind::eval, "the guard of 'if' is not a boolean term", n);
  }
}

// ρ(V): substitute ρ(x) for every free x of the open value V (seed 003 line 259).
Value Machine::value_of(const Node& v) {
  switch (v.kind) {
  case NodeKind::var:
    if (const Value* found = rho_.find(v.name)) return *found;
    stuck(ErrorKind::eval, "unbound variable '" + v.name + "'", v);
  case NodeKind::constant:
    return Value::real(v.value);
  case NodeKind::unit:
    return Value::unit();
  case NodeKind::pair:
    return Value::pair(value_of(*v.a), value_of(*v.b));
  default:
    stuck(ErrorKind::eval, "value_of: not a value", v);
  }
}

namespace rules {

// (O-add)  V ⇒ r, W ⇒ s  ⟹  V + W ⇒ r + s
Value o_add(Machine& m, const FunEnv&, const Node& n, std::span<const Value> args) {
  m.step(Rule::O_add, &n);
  return Value::real(args[0].as_real() + args[1].as_real());
}

// (O-op)  V ⇒ V'  ⟹  op(V) ⇒ W  if ev(op, V') ≃ W; stuck (a domain error) otherwise
Value o_op(Machine& m, const FunEnv&, const Node& n, std::span<const Value> args) {
  m.step(Rule::O_op, &n);
  return at_redex(n, [&] { return m.rules().ev(n.name, args[0]); });
}

// (O-let)  V ⇒ V', φ|ρ[x ↦ V'] ⊢ N ⇒ W  ⟹  let x:T = V in N ⇒ W
Value o_let(Machine& m, const FunEnv& phi, const Node& n, std::span<const Value> args) {
  m.step(Rule::O_let, &n);
  ScopedEnv<Value>::Scope scope(m.rho());
  m.rho().push(n.name, args[0]);
  return m.eval(phi, n.b);
}

// (O-fst)  V ⇒ <W1, W2>  ⟹  fst(V) ⇒ W1
Value o_fst(Machine& m, const FunEnv&, const Node& n, std::span<const Value> args) {
  m.step(Rule::O_fst, &n);
  return args[0].first();
}

// (O-snd)  V ⇒ <W1, W2>  ⟹  snd(V) ⇒ W2
Value o_snd(Machine& m, const FunEnv&, const Node& n, std::span<const Value> args) {
  m.step(Rule::O_snd, &n);
  return args[0].second();
}

// (O-ift)  M ⇒ V  ⟹  if true then M else N ⇒ V
Value o_ift(Machine& m, const FunEnv& phi, const Node& n, std::span<const Value>) {
  m.step(Rule::O_ift, &n);
  return m.eval(phi, n.b);
}

// (O-iff)  N ⇒ V  ⟹  if false then M else N ⇒ V
Value o_iff(Machine& m, const FunEnv& phi, const Node& n, std::span<const Value>) {
  m.step(Rule::O_iff, &n);
  return m.eval(phi, n.c);
}

// (O-letrec)  φ[f ↦ clo_φ(f(x:T):U.M)] | ρ ⊢ N ⇒ V  ⟹  letrec f(x:T):U = M in N ⇒ V
// [reconstructed, spec §11.2]; with letrec_n this is (L-letrec) of Fig. 8, closure clo_{n,φ}.
Value o_letrec(Machine& m, const FunEnv& phi, const Node& n, std::span<const Value>) {
  m.step(n.limit ? Rule::L_letrec : Rule::O_letrec, &n);
  auto closure = std::make_shared<const Closure>(
      Closure{n.name, n.param, n.type, n.result_type, n.a, phi, n.limit});
  return m.eval(extend(phi, n.name, closure), n.b);
}

// (O-call)  V ⇒ V', φ'[f ↦ φ(f)] | {x ↦ V'} ⊢ M ⇒ W  ⟹  f(V) ⇒ W,  φ(f) = clo_φ'(f(x:T):U.M)
// The body runs in the closure's φ' (static scoping) and sees only its parameter.
// (L-call) of Fig. 8 when φ(f) = clo_{n+1,φ'}: the body sees f as clo_{n,φ'}; clo_0 is stuck.
Value o_call(Machine& m, const FunEnv& phi, const Node& n, std::span<const Value> args) {
  const ClosurePtr closure = lookup(phi, n.name);
  if (!closure) stuck(ErrorKind::eval, "unknown function '" + n.name + "'", n);
  ClosurePtr self = closure;
  if (closure->limit) {
    if (*closure->limit == 0) // stuck: recorded, not thrown (Machine::eval)
      return m.stuck_at_clo_0(
          ApproximantStuck("recursion limit of letrec[n] " + n.name +
                               " exhausted (a call through clo_0 is stuck; seed 003 Fig. 8)",
                           n.pos));
    m.step(Rule::L_call, &n);
    Closure lower = *closure;
    lower.limit = *closure->limit - 1;
    self = std::make_shared<const Closure>(std::move(lower));
  } else {
    m.step(Rule::O_call, &n);
  }
  ScopedEnv<Value>::Frame frame(m.rho());
  m.rho().push(closure->x, args[0]);
  return m.eval(extend(closure->env, closure->f, self), closure->body);
}

// (O-rd)  φ|ρ ⊢ W.rd_V(x:T.N) ⇝ C,  φ|ρ ⊢ C ⇒ X  ⟹  φ|ρ ⊢ W.rd_V(x:T.N) ⇒ X
// "first symbolically evaluate the redex, then ordinarily evaluate the resulting trace" (lines
// 219, 351-354): trace N at x = V, differentiate the trace, evaluate the derivative. As in spec
// §4.6, the closed point and cotangent are passed to R (same value, smaller trace).
Value o_rd(Machine& m, const FunEnv& phi, const Node& n, std::span<const Value> args) {
  m.step(Rule::O_rd, &n);
  const TermPtr derivative = rd_trace(m, phi, n, value_term(args[0]), value_term(args[1]), args[0]);
  return m.eval(phi, derivative);
}

// (O-pred)  V ⇒ V'  ⟹  pred(V) ⇒ b  if bev(pred, V') ≃ b; stuck (domain error) otherwise
bool o_pred(Machine& m, const Node& n, const Value& arg) {
  m.step(Rule::O_pred, &n);
  return at_redex(n, [&] { return m.rules().bev(n.name, arg); });
}

Value ev(const std::string& op, const Value& arg) {
  const auto found = ops::find_operation(op);
  if (!found) throw AdsemError(ErrorKind::eval, "unknown operation '" + op + "'");
  const std::vector<double> out = ops::apply(*found, flatten(arg));
  return unflatten(found->arity().second, out);
}

bool bev(const std::string& pred, const Value& arg) {
  const Primitive* found = ops::find_predicate(pred);
  if (!found) throw AdsemError(ErrorKind::eval, "unknown predicate '" + pred + "'");
  return ops::holds(*found, flatten(arg));
}

} // namespace rules
} // namespace adsem::simple_diff
