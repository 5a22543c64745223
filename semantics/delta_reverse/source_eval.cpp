#include "semantics/delta_reverse/source_eval.hpp"

#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse::source_rules {

namespace {
using VK = ValueNode::Kind;
} // namespace

// (E-Var)  ρ ⊢ x ⇓ ρ(x)
Next e_var(Machine&, const SRedex& r, const RuleInfo&) {
  const std::string& x = r.term->name;
  for (const EnvNode* at = r.env.get(); at != nullptr; at = at->next.get())
    if (at->name == x) return {at->value};
  stuck("unbound variable " + x, r.term);
}

// (E-Lam)  ρ ⊢ λx. e ⇓ clo(ρ, x, e)
Next e_lam(Machine&, const SRedex& r, const RuleInfo&) {
  return {v_closure(r.env, r.term->name, r.term->kids[0])};
}

// (E-App)  ρ ⊢ e1 ⇓ f, ρ ⊢ e2 ⇓ a (function first, L456-470), then δ_op(a) for a primitive, or
// the closure's body under its environment extended by a (tail position)
Next e_app(Machine& m, const SRedex& r, const RuleInfo&) {
  const Value f = m.eval(r.env, r.term->kids[0]);
  const Value a = m.eval(r.env, r.term->kids[1]);
  if (f->kind == VK::prim || f->kind == VK::array_op) return {m.apply(f, a)};
  if (f->kind != VK::closure) stuck("applying a non-function", r.term);
  return {nullptr, extend(f->env, f->name, a), f->body};
}

// (E-Let)  ρ ⊢ e1 ⇓ v, then e2 under ρ[x ↦ v] (tail position)
Next e_let(Machine& m, const SRedex& r, const RuleInfo&) {
  const Value v = m.eval(r.env, r.term->kids[0]);
  return {nullptr, extend(r.env, r.term->name, v), r.term->kids[1]};
}

// (E-Pair)  ρ ⊢ e1 ⇓ v1, ρ ⊢ e2 ⇓ v2 (left component first)  ⟹  (e1, e2) ⇓ (v1, v2)
Next e_pair(Machine& m, const SRedex& r, const RuleInfo&) {
  const Value a = m.eval(r.env, r.term->kids[0]);
  const Value b = m.eval(r.env, r.term->kids[1]);
  return {v_pair(a, b)};
}

namespace {
Value projected(Machine& m, const SRedex& r) {
  const Value v = m.eval(r.env, r.term->kids[0]);
  if (v->kind != VK::pair) stuck("projection of a non-pair", r.term);
  return v;
}
} // namespace

// (E-Fst)  e ⇓ (v1, v2)  ⟹  fst e ⇓ v1
Next e_fst(Machine& m, const SRedex& r, const RuleInfo&) {
  return {projected(m, r)->a};
}

// (E-Snd)  e ⇓ (v1, v2)  ⟹  snd e ⇓ v2
Next e_snd(Machine& m, const SRedex& r, const RuleInfo&) {
  return {projected(m, r)->b};
}

// (E-Inl)  e ⇓ v  ⟹  inl e ⇓ inl v
Next e_inl(Machine& m, const SRedex& r, const RuleInfo&) {
  return {v_inl(m.eval(r.env, r.term->kids[0]))};
}

// (E-Inr)  e ⇓ v  ⟹  inr e ⇓ inr v
Next e_inr(Machine& m, const SRedex& r, const RuleInfo&) {
  return {v_inr(m.eval(r.env, r.term->kids[0]))};
}

bool scrutinee_inl(const Machine&, const SRedex& r) {
  return r.scrutinee != nullptr && (*r.scrutinee)->kind == VK::inl;
}
bool scrutinee_inr(const Machine&, const SRedex& r) {
  return r.scrutinee != nullptr && (*r.scrutinee)->kind == VK::inr;
}

// (E-Case-Inl)  e0 ⇓ inl v, then e1 under ρ[x1 ↦ v] (tail position)
Next e_case_inl(Machine&, const SRedex& r, const RuleInfo&) {
  return {nullptr, extend(r.env, r.term->name, (*r.scrutinee)->a), r.term->kids[1]};
}

// (E-Case-Inr)  e0 ⇓ inr v, then e2 under ρ[x2 ↦ v] (tail position)
Next e_case_inr(Machine&, const SRedex& r, const RuleInfo&) {
  return {nullptr, extend(r.env, r.term->name2, (*r.scrutinee)->a), r.term->kids[2]};
}

// (E-Real)  r ⇓ r
Next e_real(Machine&, const SRedex& r, const RuleInfo&) {
  return {v_real(r.term->real)};
}

// (E-Leaf)  k ⇓ k
Next e_leaf(Machine&, const SRedex& r, const RuleInfo&) {
  return {v_int(r.term->integer)};
}

// (E-Op)  op ⇓ op (a primitive is a function value)
Next e_op(Machine&, const SRedex& r, const RuleInfo&) {
  return {v_prim(r.term->name)};
}

// (E-Comp)  pure e, do {..}, deltaLet e ⇓ comp(ρ, c), run later on the DeltaState
Next e_comp(Machine&, const SRedex& r, const RuleInfo&) {
  return {v_comp(r.env, r.term)};
}

// (E-Delta)  the constructor's arguments evaluated left to right, then the Delta, Delta2 or δS
// value built (δS: by the polytypic operation, a rule of DenseOp)
Next e_delta(Machine& m, const SRedex& r, const RuleInfo&) {
  const Term& t = r.term;
  const Node& n = *t;
  const auto real_of = [&](const Term& k) {
    const Value v = m.eval(r.env, k);
    if (v->kind != VK::real) stuck("a Scale coefficient is not a real", t);
    return v->real;
  };
  const auto delta_of = [&](const Term& k) {
    const Value v = m.eval(r.env, k);
    if (v->kind != VK::delta) stuck("expected a Delta", t);
    return v->delta;
  };
  const auto dense_of = [&](const Term& k) {
    const Value v = m.eval(r.env, k);
    if (v->kind != VK::dense) stuck("expected a dense tangent", t);
    return v->dense;
  };
  const auto dense = [&](const DenseOp::Redex& operands) {
    return Next{m.fire<DenseOp>(m, operands, "no rule of the δS operations applies", t->pos)};
  };
  switch (n.kind) {
  case Kind::d_zero:
  case Kind::d2_zero:
    return {v_delta(d_zero())};
  case Kind::d_scale:
  case Kind::d2_scale: {
    const double x = real_of(n.kids[0]);
    return {v_delta(d_scale(x, delta_of(n.kids[1])))};
  }
  case Kind::d_add:
  case Kind::d2_add: {
    const Delta a = delta_of(n.kids[0]);
    return {v_delta(d_add(a, delta_of(n.kids[1])))};
  }
  case Kind::d_var:
  case Kind::d2_onehot: {
    const Value v = m.eval(r.env, n.kids[0]);
    if (v->kind != VK::integer) stuck("expected an id", t);
    return {v_delta(n.kind == Kind::d_var ? d_var(v->integer) : d_onehot(v->integer))};
  }
  case Kind::s_zero:
    return dense({t});
  case Kind::s_oplus: {
    const auto a = dense_of(n.kids[0]);
    const auto b = dense_of(n.kids[1]);
    return dense({t, 0.0, a.get(), b.get()});
  }
  case Kind::s_otimes: {
    const double x = real_of(n.kids[0]);
    const auto b = dense_of(n.kids[1]);
    return dense({t, x, nullptr, b.get()});
  }
  default:
    stuck("unknown term form", t);
  }
}

std::string term_excerpt(const Machine&, const SRedex& r) {
  std::string s = print(r.term);
  if (s.size() > 100) s = s.substr(0, 97) + "...";
  return s;
}

// zeroS = (0, ..., 0) ∈ R^a
Value dense_zero(Machine& m, const DenseOp::Redex&, const RuleInfo&) {
  m.counters.dense_flops += m.dense_dimension;
  return v_dense(std::vector<double>(static_cast<std::size_t>(m.dense_dimension), 0.0));
}

// v ⊕ w, componentwise
Value dense_oplus(Machine& m, const DenseOp::Redex& r, const RuleInfo&) {
  const std::vector<double>& a = *r.a;
  const std::vector<double>& b = *r.b;
  if (a.size() != b.size()) stuck("⊕ of tangents of different dimensions", r.term);
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = a[i] + b[i];
  m.counters.dense_flops += static_cast<long>(out.size());
  return v_dense(std::move(out));
}

// r ⊗ w, componentwise
Value dense_otimes(Machine& m, const DenseOp::Redex& r, const RuleInfo&) {
  const std::vector<double>& b = *r.b;
  std::vector<double> out(b.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = r.r * b[i];
  m.counters.dense_flops += static_cast<long>(out.size());
  return v_dense(std::move(out));
}

// (E-Apply-Op)  op applied to a ⇓ δ_op(a)
Value apply_op(Machine& m, const Apply::Redex& r, const RuleInfo&) {
  return m.apply_prim(r.f->name, r.a);
}

std::string op_name(const Machine&, const Apply::Redex& r) {
  return r.f->name;
}

// pure x = \s -> (x, s)
RunNext m_pure(MonadRun& c, const Monad::Redex& r, const RuleInfo&) {
  const Value& comp = r.computation;
  return {c.machine.eval(comp->env, comp->body->kids[0])};
}

// m >>= k = \s -> case m s of (r, s') -> k r s': m runs next, k waits on the stack
RunNext m_bind(MonadRun& c, const Monad::Redex& r, const RuleInfo&) {
  const Value& comp = r.computation;
  c.pending.emplace_back(comp->env, comp->body.get());
  return {nullptr, c.machine.eval(comp->env, comp->body->kids[0])};
}

bool is_delta(const MonadRun&, const Monad::Redex& r) {
  return r.delta != nullptr && (*r.delta)->kind == VK::delta;
}

// deltaLet d = \(n, bs) -> (n, (n + 1, (n, d) : bs))
RunNext m_delta_let(MonadRun& c, const Monad::Redex& r, const RuleInfo&) {
  DeltaState& state = c.machine.state;
  const std::int64_t id = state.next;
  ++state.next;
  state.binds.emplace_back(id, (*r.delta)->delta);
  return {v_int(id)};
}

std::string new_binding(const MonadRun& c, const Monad::Redex& r) {
  return std::to_string(c.machine.state.next) + " = " + print_delta((*r.delta)->delta);
}

} // namespace adsem::delta_reverse::source_rules
