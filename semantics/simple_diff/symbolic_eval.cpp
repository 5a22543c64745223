#include "semantics/simple_diff/symbolic_eval.hpp"

#include "semantics/simple_diff/rd.hpp"

namespace adsem::simple_diff {

namespace {

Term wrap(const TraceBindings& bindings, Term c) {
  for (auto it = bindings.rbegin(); it != bindings.rend(); ++it)
    c = mk::let(it->z, it->type, it->trace, std::move(c));
  return c;
}

// A subterm in evaluation position, reduced to an open value: values stay as they are
// (S-val); pairs are atomised componentwise; any other term is a redex in a non-trivial context,
// bound by the rule of SymbolicContext (S-ctx).
Term atom(Machine& m, const FunEnv& phi, const Term& term, TraceBindings& bindings) {
  const Node& n = *term;
  switch (n.kind) {
  case Kind::var:
  case Kind::constant:
  case Kind::unit:
    return term;
  case Kind::pair: {
    Term a = atom(m, phi, n.a, bindings);
    if (m.is_stuck()) return a; // the placeholder passes up (see Machine::sym)
    Term b = atom(m, phi, n.b, bindings);
    if (m.is_stuck()) return b;
    if (a == n.a && b == n.b) return term;
    return mk::pair_ann(a, b, n.annotation());
  }
  default:
    break;
  }
  const SymbolicContext::Redex redex{phi, term, bindings};
  if (const Rule<SymbolicContext>* rule = m.select<SymbolicContext>(redex))
    return m.fire(*rule, redex);
  stuck(ErrorKind::eval, "no rule traces this redex in an evaluation position", n);
}

// The rule of ⇝ that fires on the redex; when none does: an unbound function, a call through
// clo_0 (Fig. 8 has no rule for it: recorded, not thrown, see Machine::sym), or a stuck term.
SymResult apply(Machine& m, const Symbolic::Redex& redex) {
  if (const Rule<Symbolic>* rule = m.select<Symbolic>(redex)) return m.fire(*rule, redex);
  const Node& n = *redex.term;
  if (n.kind == Kind::call) {
    if (!redex.callee) stuck(ErrorKind::eval, "unknown function '" + n.name + "'", n);
    if (redex.callee->limit && *redex.callee->limit == 0) {
      m.stuck_at_clo_0(approximant_stuck(n));
      return {redex.term, std::nullopt};
    }
  }
  stuck(ErrorKind::eval, "no rule of symbolic evaluation applies", n);
}

// The guard of `if` decided: a predicate redex by the rule of SymbolicGuard (S-ctxb) once its
// argument is an atom; a boolean value by ⇒.
bool guard_value(Machine& m, const FunEnv& phi, const Node& guard, TraceBindings& bindings) {
  if (guard.kind != Kind::pred) return m.decide({guard});
  // Redexes inside the guard are bound like any other (they stay, dead: spec §4.4, E31).
  const Term arg = atom(m, phi, guard.a, bindings);
  if (m.is_stuck()) return false; // the caller checks is_stuck() before using the answer
  const SymbolicGuard::Redex redex{guard, arg};
  if (const Rule<SymbolicGuard>* rule = m.select<SymbolicGuard>(redex)) return m.fire(*rule, redex);
  stuck(ErrorKind::eval, "no rule decides this guard", guard);
}

// The trace of `term`'s own redex after its evaluation-position subterms are atomised.
SymResult walk(Machine& m, const FunEnv& phi, const Term& term, TraceBindings& bindings,
               bool want) {
  Machine::Depth depth(m);
  // a user's rule "LHS ⇝ C if RHS ⇝ C", before the premises of the paper's rule (relations.hpp)
  const Rewrite::Redex rewrite{phi, term, /*symbolic=*/true};
  if (const Rule<Rewrite>* rule = m.select<Rewrite>(rewrite))
    return walk(m, phi, m.fire(*rule, rewrite), bindings, want);
  const Node& n = *term;
  switch (n.kind) {
  case Kind::var:
  case Kind::constant:
  case Kind::unit:
  case Kind::pair: {
    const Term v = atom(m, phi, term, bindings);
    if (m.is_stuck()) return {v, std::nullopt}; // the placeholder passes up (Machine::sym)
    return apply(m, {phi, v, {}, want});
  }
  case Kind::add: {
    Term left = atom(m, phi, n.a, bindings);
    if (m.is_stuck()) return {left, std::nullopt};
    Term right = atom(m, phi, n.b, bindings);
    if (m.is_stuck()) return {right, std::nullopt};
    const Term atoms[] = {std::move(left), std::move(right)};
    return apply(m, {phi, term, atoms, want});
  }
  case Kind::op:
  case Kind::let:
  case Kind::fst:
  case Kind::snd: {
    const Term atoms[] = {atom(m, phi, n.a, bindings)};
    if (m.is_stuck()) return {atoms[0], std::nullopt};
    return apply(m, {phi, term, atoms, want});
  }
  case Kind::if_: {
    const bool holds = guard_value(m, phi, *n.a, bindings);
    if (m.is_stuck()) return {term, std::nullopt};
    return apply(m, {phi, term, {}, want, holds});
  }
  case Kind::letrec:
    return apply(m, {phi, term, {}, want});
  case Kind::call: {
    const Term atoms[] = {atom(m, phi, n.a, bindings)};
    if (m.is_stuck()) return {atoms[0], std::nullopt};
    return apply(m, {phi, term, atoms, want, false, lookup(phi, n.name)});
  }
  case Kind::rd: { // the point before the cotangent (spec P-8)
    Term point = atom(m, phi, n.b, bindings);
    if (m.is_stuck()) return {point, std::nullopt};
    Term cotangent = atom(m, phi, n.a, bindings);
    if (m.is_stuck()) return {cotangent, std::nullopt};
    const Term atoms[] = {std::move(point), std::move(cotangent)};
    return apply(m, {phi, term, atoms, want});
  }
  default:
    break;
  }
  stuck(ErrorKind::eval, "symbolic evaluation of a boolean term", n);
}

// The value of a tail trace, when S-ctx asks for it: φ|ρ ⊢ C ⇒ V (none when C is stuck: the
// caller checks is_stuck() before using it).
std::optional<Value> value_if(Machine& m, const FunEnv& phi, bool want, const Term& c) {
  if (!want) return std::nullopt;
  Value v = m.eval(phi, c);
  if (m.is_stuck()) return std::nullopt;
  return v;
}

} // namespace

SymResult Machine::sym(const FunEnv& phi, const Term& m, bool want_value) {
  Depth depth(*this);
  // the atoms bound while tracing M are local to M's trace
  ScopedEnv<Value>::Scope scope(rho_);
  TraceBindings bindings;
  SymResult tail = walk(*this, phi, m, bindings, want_value);
  if (stuck_) return tail; // the placeholder passes up
  // The value of the whole trace `let z_1 = C_1 in ... C` is the tail's value in ρ extended by
  // the z_i, each of which was evaluated when it was bound: that is φ|ρ ⊢ C ⇒ V of S-ctx
  // without evaluating the trace a second time (linear cost; Prop. 3.5 makes them equal).
  return {wrap(bindings, tail.trace), std::move(tail.value)};
}

Term Machine::sym(const FunEnv& phi, const Term& m) {
  return sym(phi, m, false).trace;
}

namespace rules {

// (S-val)  V ⇝ V   -- open, not ρ(V)
SymResult s_val(Machine& m, const SRedex& r, const RuleInfo&) {
  return {r.term, r.want_value ? std::optional<Value>(m.value_of(*r.term)) : std::nullopt};
}

// (S-add)  V + W ⇝ V + W
SymResult s_add(Machine& m, const SRedex& r, const RuleInfo&) {
  Term c = mk::add(r.atoms[0], r.atoms[1]);
  return {c, value_if(m, r.phi, r.want_value, c)};
}

// (S-op)  op(V) ⇝ op(V)   -- no call to ev: definedness is not checked in tail position
SymResult s_op(Machine& m, const SRedex& r, const RuleInfo&) {
  Term c = mk::op(r.term->name, r.atoms[0], r.term->pos);
  return {c, value_if(m, r.phi, r.want_value, c)};
}

// (S-fst)  fst_{T,U}(V) ⇝ fst_{T,U}(V)
SymResult s_fst(Machine& m, const SRedex& r, const RuleInfo&) {
  Term c = mk::fst_ann(r.atoms[0], r.term->annotation());
  return {c, value_if(m, r.phi, r.want_value, c)};
}

// (S-snd)  snd_{T,U}(V) ⇝ snd_{T,U}(V)
SymResult s_snd(Machine& m, const SRedex& r, const RuleInfo&) {
  Term c = mk::snd_ann(r.atoms[0], r.term->annotation());
  return {c, value_if(m, r.phi, r.want_value, c)};
}

// (S-let)  V ⇒ V', φ|ρ[x ↦ V'] ⊢ N ⇝ C  ⟹  let x:T = V in N ⇝ let x:T = V in C
SymResult s_let(Machine& m, const SRedex& r, const RuleInfo&) {
  const Node& n = *r.term;
  ScopedEnv<Value>::Scope scope(m.rho());
  m.rho().push(n.name, m.value_of(*r.atoms[0]));
  SymResult body = m.sym(r.phi, n.b, r.want_value);
  if (m.is_stuck()) return body;
  return {mk::let(n.name, n.type, r.atoms[0], body.trace), std::move(body.value)};
}

// (S-ift)  M ⇝ C  ⟹  if true then M else N ⇝ C
SymResult s_ift(Machine& m, const SRedex& r, const RuleInfo&) {
  return m.sym(r.phi, r.term->b, r.want_value);
}

// (S-iff)  N ⇝ C  ⟹  if false then M else N ⇝ C
SymResult s_iff(Machine& m, const SRedex& r, const RuleInfo&) {
  return m.sym(r.phi, r.term->c, r.want_value);
}

// (S-letrec)  φ[f ↦ clo_φ(f(x:T):U.M)] | ρ ⊢ N ⇝ C  ⟹  letrec f(x:T):U = M in N ⇝ C
// ((L-sletrec) for letrec_n.)
SymResult s_letrec(Machine& m, const SRedex& r, const RuleInfo&) {
  const Node& n = *r.term;
  auto closure = std::make_shared<const Closure>(
      Closure{n.name, n.param(), n.type, n.result_type(), n.a, r.phi, n.limit()});
  return m.sym(extend(r.phi, n.name, closure), n.b, r.want_value);
}

// (S-call)  V ⇒ V', φ'[f ↦ φ(f)] | {x ↦ V'} ⊢ M ⇝ C  ⟹  f(V) ⇝ let x:T = V in C
// where φ(f) = clo_φ'(f(x:T):U.M) (the transcript prints clo_φ; φ' is meant, spec §11.3).
// The body is inlined; its parameter is re-bound to the OPEN value V (spec P-2).
// ((L-scall) for clo_{n+1,φ'}, keeping the let wrapper the transcript drops, spec §11.4.)
SymResult s_call(Machine& m, const SRedex& r, const RuleInfo&) {
  const ClosurePtr& closure = r.callee;
  ClosurePtr self = closure;
  if (closure->limit) {
    Closure lower = *closure;
    lower.limit = *closure->limit - 1;
    self = std::make_shared<const Closure>(std::move(lower));
  }
  const Value arg = m.value_of(*r.atoms[0]);
  SymResult body;
  {
    ScopedEnv<Value>::Frame frame(m.rho());
    m.rho().push(closure->x, arg);
    body = m.sym(extend(closure->env, closure->f, self), closure->body, r.want_value);
  }
  if (m.is_stuck()) return body;
  return {mk::let(closure->x, closure->param_type, r.atoms[0], body.trace), std::move(body.value)};
}

// (S-rd)  V ⇒ V', φ|ρ[x ↦ V'] ⊢ N ⇝ C  ⟹  W.rd_V(x:T.N) ⇝ W.R_V(x:T.C)
// V and W stay open in the output; only V' steers the tracing of N (spec P-2).
SymResult s_rd(Machine& m, const SRedex& r, const RuleInfo&) {
  const Term& point = r.atoms[0];
  const Term& cotangent = r.atoms[1];
  Term c = rd_trace(m, r.phi, *r.term, point, cotangent, m.value_of(*point));
  if (m.is_stuck()) return {c, std::nullopt};
  return {c, value_if(m, r.phi, r.want_value, c)};
}

// (S-ctx)  R ⇝ C, C ⇒ V, E[z] ⇝ D  ⟹  E[R] ⇝ let z:T_V = C in D
// The redex's trace C is bound to a fresh z, and C's value V goes into ρ (so later guards can
// be decided); the context continues with the atom z.
Term s_ctx(Machine& m, const SymbolicContext::Redex& r, const RuleInfo&) {
  SymResult traced = walk(m, r.phi, r.term, r.bindings, /*want=*/true);
  if (m.is_stuck()) return traced.trace; // no value to bind: the placeholder passes up
  const std::string z = m.names().fresh("z");
  r.bindings.push_back(TraceBinding{z, type_of_value(*traced.value), traced.trace});
  m.rho().push(z, *traced.value);
  return mk::var(z);
}

// (S-ctxb)  R_bool ⇒ b, E[b] ⇝ C  ⟹  E[R_bool] ⇝ C
// The predicate redex is ordinarily evaluated (by O-pred); no boolean enters the trace.
bool s_ctxb(Machine& m, const SymbolicGuard::Redex& r, const RuleInfo&) {
  const Value arg = m.value_of(*r.arg);
  return m.decide({r.node, &arg});
}

} // namespace rules
} // namespace adsem::simple_diff
