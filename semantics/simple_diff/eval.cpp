#include "semantics/simple_diff/eval.hpp"

#include <optional>
#include <variant>

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
// The same error as at_redex throws, for one kept by value.
AdsemError at_redex_position(AdsemError e, const Node& n) {
  if (e.diagnostic().pos || !n.pos) return e;
  return AdsemError(e.diagnostic().kind, e.diagnostic().message, n.pos);
}

// The rule of ⇒ that fires on the redex; when none does: an unbound function, a call through
// clo_0 (Fig. 8 has no rule for it: recorded, not thrown, see Machine::eval), or a stuck term.
Value apply(Machine& m, const Ordinary::Redex& redex) {
  if (const Rule<Ordinary>* rule = m.select<Ordinary>(redex)) return m.fire(*rule, redex);
  const Node& n = *redex.term;
  if (n.kind == Kind::call) {
    if (!redex.callee) stuck(ErrorKind::eval, "unknown function '" + n.name + "'", n);
    if (redex.callee->limit && *redex.callee->limit == 0)
      return m.stuck_at_clo_0(approximant_stuck(n));
  }
  stuck(ErrorKind::eval, "no rule of ordinary evaluation applies", n);
}

} // namespace

// ---- the relation φ | ρ ⊢ M ⇒ V ------------------------------------------------------------

Value Machine::eval(const FunEnv& phi, const Term& term) {
  // A rule that evaluates what a stuck premise returned (O-rd after a trace reached clo_0, a
  // mutant's patched rule) takes no step: the placeholder passes up.
  if (stuck_) return Value::unit();
  Depth depth(*this);
  // a user's rule "LHS ⇒ V if RHS ⇒ V", before the premises of the paper's rule (relations.hpp)
  const Rewrite::Redex rewrite{phi, term};
  if (const Rule<Rewrite>* rule = select<Rewrite>(rewrite)) return eval(phi, fire(*rule, rewrite));
  const Node& n = *term;
  switch (n.kind) {
  case Kind::var:
  case Kind::constant:
  case Kind::unit:
    return apply(*this, {phi, term});
  case Kind::pair: {
    if (is_value(n)) return apply(*this, {phi, term});
    // contexts <E, N> and <V, E> (Fig. 3): left component first
    Value first = eval(phi, n.a);
    if (stuck_) return first; // a stuck subterm: the placeholder passes up (see eval in .hpp)
    Value second = eval(phi, n.b);
    if (stuck_) return second;
    return Value::pair(std::move(first), std::move(second));
  }
  case Kind::add: { // contexts E + N, V + E, then the redex
    Value left = eval(phi, n.a);
    if (stuck_) return left;
    Value right = eval(phi, n.b);
    if (stuck_) return right;
    const Value args[] = {std::move(left), std::move(right)};
    return apply(*this, {phi, term, args});
  }
  case Kind::let:
    return eval_lets(phi, term);
  case Kind::op:
  case Kind::fst:
  case Kind::snd: {
    const Value args[] = {eval(phi, n.a)};
    if (stuck_) return args[0];
    return apply(*this, {phi, term, args});
  }
  case Kind::if_: { // context `if E_bool then M else N` (spec §2.5 note), then the redex
    const bool holds = eval_bool(phi, n.a);
    if (stuck_) return Value::unit();
    return apply(*this, {phi, term, {}, holds});
  }
  case Kind::letrec:
    return apply(*this, {phi, term});
  case Kind::call: {
    const Value args[] = {eval(phi, n.a)};
    if (stuck_) return args[0];
    return apply(*this, {phi, term, args, false, lookup(phi, n.name)});
  }
  case Kind::rd: { // contexts M.rd_E(x:T.N), E.rd_V(x:T.N): the point L first, then M
    Value point = eval(phi, n.b);
    if (stuck_) return point;
    Value cotangent = eval(phi, n.a);
    if (stuck_) return cotangent;
    const Value args[] = {std::move(point), std::move(cotangent)};
    return apply(*this, {phi, term, args});
  }
  case Kind::b_true:
  case Kind::b_false:
  case Kind::pred:
    break;
  }
  stuck(ErrorKind::eval, "a boolean term where a term was expected", n);
}

// let x1:T1 = M1 in let x2:T2 = M2 in ... N, where the book's O-let fires at each let: O-let
// evaluates the body in ρ[x ↦ V'] as its last premise, so the chain is walked in a loop instead of
// one nested eval (and its rule's frames) per let. R-fast's derivative is such a chain, three lets
// a summand of the wide sum, and those frames were a large part of the memory its evaluation
// touched (docs/performance.md, "What is still open"). Each let takes the same step as `fire`
// takes for O-let, each body enters one more level of the depth guard, as eval did, and a body
// that is no let, or that a user's rule rewrites, is evaluated by eval. The bindings leave ρ
// together when the chain's value is known; nothing reads ρ in between but the bodies.
Value Machine::eval_lets(const FunEnv& phi, const Term& first) {
  ScopedEnv<Value>::Scope scope(rho_);
  Levels levels(*this);
  const Term* term = &first;
  for (;;) {
    const Node& n = **term;
    const Value args[] = {eval(phi, n.a)};
    if (stuck_) return args[0];
    const Ordinary::Redex redex{phi, *term, args};
    const Rule<Ordinary>* rule = select<Ordinary>(redex);
    const auto* result = rule ? rule->result.target<decltype(&rules::o_let)>() : nullptr;
    if (!result || *result != &rules::o_let) return apply(*this, redex); // a patched O-let
    step(rule->info, &n);
    rho_.push(n.name, args[0]);
    const Term& body = n.b;
    if (body->kind != Kind::let || select<Rewrite>(Rewrite::Redex{phi, body}))
      return eval(phi, body);
    levels.enter();
    term = &body;
  }
}

bool Machine::eval_bool(const FunEnv& phi, const Term& term) {
  Depth depth(*this);
  const Node& n = *term;
  switch (n.kind) {
  case Kind::b_true:
  case Kind::b_false:
    return decide({n});
  case Kind::pred: { // context pred(E), then the redex
    const Value arg = eval(phi, n.a);
    if (stuck_) return false; // the caller checks is_stuck() before using the answer
    return decide({n, &arg});
  }
  default:
    stuck(ErrorKind::eval, "the guard of 'if' is not a boolean term", n);
  }
}

bool Machine::decide(const Boolean::Redex& redex) {
  if (const Rule<Boolean>* rule = select<Boolean>(redex)) return fire(*rule, redex);
  stuck(ErrorKind::eval, "no rule decides this boolean term", redex.node);
}

// ρ(V): substitute ρ(x) for every free x of the open value V (seed 003 line 259).
Value Machine::value_of(const Node& v) {
  switch (v.kind) {
  case Kind::var:
    if (const Value* found = rho_.find(v.name)) return *found;
    stuck(ErrorKind::eval, "unbound variable '" + v.name + "'", v);
  case Kind::constant:
    return Value::real(v.value);
  case Kind::unit:
    return Value::unit();
  case Kind::pair:
    return Value::pair(value_of(*v.a), value_of(*v.b));
  default:
    stuck(ErrorKind::eval, "value_of: not a value", v);
  }
}

namespace rules {

// (O-val)  φ|ρ ⊢ V ⇒ ρ(V)
Value o_val(Machine& m, const ORedex& r, const RuleInfo&) {
  return m.value_of(*r.term);
}

// (O-add)  V ⇒ r, W ⇒ s  ⟹  V + W ⇒ r + s
Value o_add(Machine&, const ORedex& r, const RuleInfo&) {
  return Value::real(r.args[0].as_real() + r.args[1].as_real());
}

// (O-op)  V ⇒ V'  ⟹  op(V) ⇒ W  if ev(op, V') ≃ W; stuck (a domain error) otherwise
// Outside op's domain the walk stops as at clo_0 (Machine::eval): unwinding the whole walk from
// the throw was most of the exception handling left in simple-diff's adequacy properties.
Value o_op(Machine& m, const ORedex& r, const RuleInfo&) {
  const Node& n = *r.term;
  std::variant<Value, AdsemError> result =
      at_redex(n, [&] { return ev_unless_outside(n.name, r.args[0]); });
  if (auto* outside = std::get_if<AdsemError>(&result))
    return m.stuck_outside_domain(at_redex_position(std::move(*outside), n));
  return std::get<Value>(std::move(result));
}

// (O-let)  V ⇒ V', φ|ρ[x ↦ V'] ⊢ N ⇒ W  ⟹  let x:T = V in N ⇒ W
Value o_let(Machine& m, const ORedex& r, const RuleInfo&) {
  ScopedEnv<Value>::Scope scope(m.rho());
  m.rho().push(r.term->name, r.args[0]);
  return m.eval(r.phi, r.term->b);
}

// (O-fst)  V ⇒ <W1, W2>  ⟹  fst(V) ⇒ W1
Value o_fst(Machine&, const ORedex& r, const RuleInfo&) {
  return r.args[0].first();
}

// (O-snd)  V ⇒ <W1, W2>  ⟹  snd(V) ⇒ W2
Value o_snd(Machine&, const ORedex& r, const RuleInfo&) {
  return r.args[0].second();
}

// (O-ift)  M ⇒ V  ⟹  if true then M else N ⇒ V
Value o_ift(Machine& m, const ORedex& r, const RuleInfo&) {
  return m.eval(r.phi, r.term->b);
}

// (O-iff)  N ⇒ V  ⟹  if false then M else N ⇒ V
Value o_iff(Machine& m, const ORedex& r, const RuleInfo&) {
  return m.eval(r.phi, r.term->c);
}

// (O-letrec)  φ[f ↦ clo_φ(f(x:T):U.M)] | ρ ⊢ N ⇒ V  ⟹  letrec f(x:T):U = M in N ⇒ V
// [reconstructed, spec §11.2]; with letrec_n this is (L-letrec) of Fig. 8, closure clo_{n,φ}.
Value o_letrec(Machine& m, const ORedex& r, const RuleInfo&) {
  const Node& n = *r.term;
  auto closure = std::make_shared<const Closure>(
      Closure{n.name, n.param(), n.type, n.result_type(), n.a, r.phi, n.limit()});
  return m.eval(extend(r.phi, n.name, closure), n.b);
}

// (O-call)  V ⇒ V', φ'[f ↦ φ(f)] | {x ↦ V'} ⊢ M ⇒ W  ⟹  f(V) ⇒ W,  φ(f) = clo_φ'(f(x:T):U.M)
// The body runs in the closure's φ' (static scoping) and sees only its parameter.
// (L-call) of Fig. 8 when φ(f) = clo_{n+1,φ'}: the body sees f as clo_{n,φ'} (clo_0: no rule).
Value o_call(Machine& m, const ORedex& r, const RuleInfo&) {
  const ClosurePtr& closure = r.callee;
  ClosurePtr self = closure;
  if (closure->limit) {
    Closure lower = *closure;
    lower.limit = *closure->limit - 1;
    self = std::make_shared<const Closure>(std::move(lower));
  }
  ScopedEnv<Value>::Frame frame(m.rho());
  m.rho().push(closure->x, r.args[0]);
  return m.eval(extend(closure->env, closure->f, self), closure->body);
}

// (O-rd)  φ|ρ ⊢ W.rd_V(x:T.N) ⇝ C,  φ|ρ ⊢ C ⇒ X  ⟹  φ|ρ ⊢ W.rd_V(x:T.N) ⇒ X
// "first symbolically evaluate the redex, then ordinarily evaluate the resulting trace" (lines
// 219, 351-354): trace N at x = V, differentiate the trace, evaluate the derivative. As in spec
// §4.6, the closed point and cotangent are passed to R (same value, smaller trace).
Value o_rd(Machine& m, const ORedex& r, const RuleInfo&) {
  const Term derivative =
      rd_trace(m, r.phi, *r.term, value_term(r.args[0]), value_term(r.args[1]), r.args[0]);
  return m.eval(r.phi, derivative); // a stuck trace: eval passes the placeholder up
}

// (O-pred)  V ⇒ V'  ⟹  pred(V) ⇒ b  if bev(pred, V') ≃ b; stuck (domain error) otherwise
bool o_pred(Machine&, const Boolean::Redex& r, const RuleInfo&) {
  return at_redex(r.node, [&] { return bev(r.node.name, *r.arg); });
}

// (O-bval)  true ⇒ true, false ⇒ false
bool o_bval(Machine&, const Boolean::Redex& r, const RuleInfo&) {
  return r.node.kind == Kind::b_true;
}

} // namespace rules

std::variant<Value, AdsemError> ev_unless_outside(const std::string& op, const Value& arg) {
  const auto found = ops::find_operation(op);
  if (!found) throw AdsemError(ErrorKind::eval, "unknown operation '" + op + "'");
  ArgumentBuffer<double> x; // the argument's few reals inline, not in a heap vector
  flatten_into(arg, x);
  if (std::optional<AdsemError> outside = ops::domain_error(*found, x)) return std::move(*outside);
  const std::vector<double> out = ops::apply(*found, x);
  // a base entry with one result is real → ... → real: no codomain type to build
  if (found->order == 0 && found->base->coarity() == 1) return Value::real(out.at(0));
  return unflatten(found->codomain(), out);
}

Value ev(const std::string& op, const Value& arg) {
  std::variant<Value, AdsemError> result = ev_unless_outside(op, arg);
  if (auto* outside = std::get_if<AdsemError>(&result)) throw std::move(*outside);
  return std::get<Value>(std::move(result));
}

bool bev(const std::string& pred, const Value& arg) {
  const Primitive* found = ops::find_predicate(pred);
  if (!found) throw AdsemError(ErrorKind::eval, "unknown predicate '" + pred + "'");
  ArgumentBuffer<double> x;
  flatten_into(arg, x);
  return ops::holds(*found, x);
}

} // namespace adsem::simple_diff
