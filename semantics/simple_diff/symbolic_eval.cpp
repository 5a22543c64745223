#include "semantics/simple_diff/symbolic_eval.hpp"

#include "semantics/simple_diff/rd.hpp"

namespace adsem::simple_diff {

namespace {

// The bindings let z_1:T_1 = C_1 in ... let z_k:T_k = C_k in [ ] produced by S-ctx, in
// evaluation order.
struct Binding {
  std::string z;
  TypePtr type;
  TermPtr trace;
};
using Bindings = std::vector<Binding>;

TermPtr wrap(const Bindings& bindings, TermPtr c) {
  for (auto it = bindings.rbegin(); it != bindings.rend(); ++it)
    c = mk::let(it->z, it->type, it->trace, std::move(c));
  return c;
}

SymResult walk(Machine& m, const FunEnv& phi, const TermPtr& term, Bindings& bindings, bool want);

// A subterm in evaluation position, reduced to an open value: values stay as they are
// (S-val); pairs are atomised componentwise; any other term is a redex in a non-trivial context
// (S-ctx): its trace C is bound to a fresh z, and C's value V (premise C ⇒ V) goes into ρ.
TermPtr atom(Machine& m, const FunEnv& phi, const TermPtr& term, Bindings& bindings) {
  const Node& n = *term;
  switch (n.kind) {
  case NodeKind::var:
  case NodeKind::constant:
  case NodeKind::unit:
    return term;
  case NodeKind::pair: {
    TermPtr a = atom(m, phi, n.a, bindings);
    TermPtr b = atom(m, phi, n.b, bindings);
    if (a == n.a && b == n.b) return term;
    return mk::pair(a, b, n.ann_left, n.ann_right);
  }
  default:
    break;
  }
  m.step(Rule::S_ctx, &n);
  SymResult r = walk(m, phi, term, bindings, /*want=*/true);
  const std::string z = m.names().fresh("z");
  bindings.push_back(Binding{z, type_of_value(*r.value), r.trace});
  m.rho().push(z, *r.value);
  return mk::var(z);
}

// The trace of `term`'s own redex after its evaluation-position subterms are atomised.
SymResult walk(Machine& m, const FunEnv& phi, const TermPtr& term, Bindings& bindings, bool want) {
  Machine::Depth depth(m);
  const Node& n = *term;
  const Rules& r = m.rules();
  switch (n.kind) {
  case NodeKind::var:
  case NodeKind::constant:
  case NodeKind::unit:
  case NodeKind::pair: { // (S-val): V ⇝ V, open
    TermPtr v = atom(m, phi, term, bindings);
    m.step(Rule::S_val, v.get());
    return {v, want ? std::optional<Value>(m.value_of(*v)) : std::nullopt};
  }
  case NodeKind::add: {
    const TermPtr atoms[] = {atom(m, phi, n.a, bindings), atom(m, phi, n.b, bindings)};
    return r.s_add(m, phi, n, atoms, want);
  }
  case NodeKind::op: {
    const TermPtr atoms[] = {atom(m, phi, n.a, bindings)};
    return r.s_op(m, phi, n, atoms, want);
  }
  case NodeKind::let: {
    const TermPtr atoms[] = {atom(m, phi, n.a, bindings)};
    return r.s_let(m, phi, n, atoms, want);
  }
  case NodeKind::fst: {
    const TermPtr atoms[] = {atom(m, phi, n.a, bindings)};
    return r.s_fst(m, phi, n, atoms, want);
  }
  case NodeKind::snd: {
    const TermPtr atoms[] = {atom(m, phi, n.a, bindings)};
    return r.s_snd(m, phi, n, atoms, want);
  }
  case NodeKind::if_: {
    const Node& guard = *n.a;
    bool b = guard.kind == NodeKind::b_true;
    if (guard.kind == NodeKind::pred) {
      // (S-ctxb): the predicate redex is ordinarily evaluated; no boolean enters the trace.
      // Redexes inside the guard are bound like any other (they stay, dead: spec §4.4, E31).
      const TermPtr arg = atom(m, phi, guard.a, bindings);
      m.step(Rule::S_ctxb, &guard);
      b = r.o_pred(m, guard, m.value_of(*arg));
    } else {
      m.step(Rule::O_bval, &guard);
    }
    return b ? r.s_ift(m, phi, n, {}, want) : r.s_iff(m, phi, n, {}, want);
  }
  case NodeKind::letrec:
    return r.s_letrec(m, phi, n, {}, want);
  case NodeKind::call: {
    const TermPtr atoms[] = {atom(m, phi, n.a, bindings)};
    return r.s_call(m, phi, n, atoms, want);
  }
  case NodeKind::rd: { // the point before the cotangent (spec P-8)
    TermPtr point = atom(m, phi, n.b, bindings);
    TermPtr cotangent = atom(m, phi, n.a, bindings);
    const TermPtr atoms[] = {std::move(point), std::move(cotangent)};
    return r.s_rd(m, phi, n, atoms, want);
  }
  default:
    break;
  }
  stuck(ErrorKind::eval, "symbolic evaluation of a boolean term", n);
}

// The value of a tail trace, when S-ctx asks for it: φ|ρ ⊢ C ⇒ V.
std::optional<Value> value_if(Machine& m, const FunEnv& phi, bool want, const TermPtr& c) {
  if (!want) return std::nullopt;
  Value v = m.eval(phi, c);
  m.throw_if_stuck(); // the value is used (S-ctx): a stuck evaluation is thrown here
  return v;
}

} // namespace

SymResult Machine::sym(const FunEnv& phi, const TermPtr& m, bool want_value) {
  Depth depth(*this);
  // the atoms bound while tracing M are local to M's trace
  ScopedEnv<Value>::Scope scope(rho_);
  Bindings bindings;
  SymResult tail = walk(*this, phi, m, bindings, want_value);
  // The value of the whole trace `let z_1 = C_1 in ... C` is the tail's value in ρ extended by
  // the z_i, each of which was evaluated when it was bound: that is φ|ρ ⊢ C ⇒ V of S-ctx
  // without evaluating the trace a second time (linear cost; Prop. 3.5 makes them equal).
  return {wrap(bindings, tail.trace), std::move(tail.value)};
}

TermPtr Machine::sym(const FunEnv& phi, const TermPtr& m) {
  return sym(phi, m, false).trace;
}

namespace rules {

// (S-add)  V + W ⇝ V + W
SymResult s_add(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr> atoms,
                bool want) {
  m.step(Rule::S_add, &n);
  TermPtr c = mk::add(atoms[0], atoms[1]);
  return {c, value_if(m, phi, want, c)};
}

// (S-op)  op(V) ⇝ op(V)   -- no call to ev: definedness is not checked in tail position
SymResult s_op(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr> atoms,
               bool want) {
  m.step(Rule::S_op, &n);
  TermPtr c = mk::op(n.name, atoms[0], n.pos);
  return {c, value_if(m, phi, want, c)};
}

// (S-fst)  fst_{T,U}(V) ⇝ fst_{T,U}(V)
SymResult s_fst(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr> atoms,
                bool want) {
  m.step(Rule::S_fst, &n);
  TermPtr c = mk::fst(atoms[0], n.ann_left, n.ann_right);
  return {c, value_if(m, phi, want, c)};
}

// (S-snd)  snd_{T,U}(V) ⇝ snd_{T,U}(V)
SymResult s_snd(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr> atoms,
                bool want) {
  m.step(Rule::S_snd, &n);
  TermPtr c = mk::snd(atoms[0], n.ann_left, n.ann_right);
  return {c, value_if(m, phi, want, c)};
}

// (S-let)  V ⇒ V', φ|ρ[x ↦ V'] ⊢ N ⇝ C  ⟹  let x:T = V in N ⇝ let x:T = V in C
SymResult s_let(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr> atoms,
                bool want) {
  m.step(Rule::S_let, &n);
  ScopedEnv<Value>::Scope scope(m.rho());
  m.rho().push(n.name, m.value_of(*atoms[0]));
  SymResult body = m.sym(phi, n.b, want);
  return {mk::let(n.name, n.type, atoms[0], body.trace), std::move(body.value)};
}

// (S-ift)  M ⇝ C  ⟹  if true then M else N ⇝ C
SymResult s_ift(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr>, bool want) {
  m.step(Rule::S_ift, &n);
  return m.sym(phi, n.b, want);
}

// (S-iff)  N ⇝ C  ⟹  if false then M else N ⇝ C
SymResult s_iff(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr>, bool want) {
  m.step(Rule::S_iff, &n);
  return m.sym(phi, n.c, want);
}

// (S-letrec)  φ[f ↦ clo_φ(f(x:T):U.M)] | ρ ⊢ N ⇝ C  ⟹  letrec f(x:T):U = M in N ⇝ C
// ((L-sletrec) for letrec_n.)
SymResult s_letrec(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr>,
                   bool want) {
  m.step(n.limit ? Rule::L_sletrec : Rule::S_letrec, &n);
  auto closure = std::make_shared<const Closure>(
      Closure{n.name, n.param, n.type, n.result_type, n.a, phi, n.limit});
  return m.sym(extend(phi, n.name, closure), n.b, want);
}

// (S-call)  V ⇒ V', φ'[f ↦ φ(f)] | {x ↦ V'} ⊢ M ⇝ C  ⟹  f(V) ⇝ let x:T = V in C
// where φ(f) = clo_φ'(f(x:T):U.M) (the transcript prints clo_φ; φ' is meant, spec §11.3).
// The body is inlined; its parameter is re-bound to the OPEN value V (spec P-2).
// ((L-scall) for clo_{n+1,φ'}, keeping the let wrapper the transcript drops, spec §11.4.)
SymResult s_call(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr> atoms,
                 bool want) {
  const ClosurePtr closure = lookup(phi, n.name);
  if (!closure) stuck(ErrorKind::eval, "unknown function '" + n.name + "'", n);
  ClosurePtr self = closure;
  if (closure->limit) {
    if (*closure->limit == 0)
      throw ApproximantStuck("recursion limit of letrec[n] " + n.name +
                                 " exhausted (a call through clo_0 is stuck; seed 003 Fig. 8)",
                             n.pos);
    m.step(Rule::L_scall, &n);
    Closure lower = *closure;
    lower.limit = *closure->limit - 1;
    self = std::make_shared<const Closure>(std::move(lower));
  } else {
    m.step(Rule::S_call, &n);
  }
  const Value arg = m.value_of(*atoms[0]);
  SymResult body;
  {
    ScopedEnv<Value>::Frame frame(m.rho());
    m.rho().push(closure->x, arg);
    body = m.sym(extend(closure->env, closure->f, self), closure->body, want);
  }
  return {mk::let(closure->x, closure->param_type, atoms[0], body.trace), std::move(body.value)};
}

// (S-rd)  V ⇒ V', φ|ρ[x ↦ V'] ⊢ N ⇝ C  ⟹  W.rd_V(x:T.N) ⇝ W.R_V(x:T.C)
// V and W stay open in the output; only V' steers the tracing of N (spec P-2).
SymResult s_rd(Machine& m, const FunEnv& phi, const Node& n, std::span<const TermPtr> atoms,
               bool want) {
  m.step(Rule::S_rd, &n);
  const TermPtr& point = atoms[0];
  const TermPtr& cotangent = atoms[1];
  TermPtr c = rd_trace(m, phi, n, point, cotangent, m.value_of(*point));
  return {c, value_if(m, phi, want, c)};
}

} // namespace rules
} // namespace adsem::simple_diff
