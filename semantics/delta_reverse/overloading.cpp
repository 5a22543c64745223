#include "semantics/delta_reverse/overloading.hpp"

#include "semantics/delta_reverse/arrays.hpp"
#include "semantics/delta_reverse/derivative_rules.hpp"

namespace adsem::delta_reverse {

namespace {

using VK = ValueNode::Kind;

bool is_dual(const Value& v) {
  return v->kind == VK::pair && v->a->kind == VK::real && v->b->kind == VK::delta;
}

// The operands of a real primitive: one dual number, or a pair of two (Fig. 1's binary
// primitives take a pair).
std::vector<Value> dual_operands(const Value& a, std::size_t arity, const std::string& op) {
  if (arity == 1 && is_dual(a)) return {a};
  if (arity == 2 && a->kind == VK::pair && is_dual(a->a) && is_dual(a->b)) return {a->a, a->b};
  throw AdsemError(ErrorKind::eval, "stuck: " + op + " applied to an argument of the wrong shape");
}

// deltaLet rhs (Fig. 10): the next id, one binding on the tape; the result (primal, Var id).
Value recorded(Machine& m, Value primal, Delta rhs) {
  DeltaState& tape = m.state;
  const std::int64_t id = tape.next++;
  tape.binds.emplace_back(id, std::move(rhs));
  return v_pair(std::move(primal), v_delta(d_var(id)));
}

// δ_op on dual numbers: Drev{op}'s body run directly (Fig. 9, Fig. 14): the partials, then
// deltaLet of Add_j (Scale (∂_j op x) u_j), then (op x, Var d).
Value record_primitive(const Rules& base, Machine& m, const DerivativeRule& rule, const Value& a) {
  const std::vector<Value> duals = dual_operands(a, rule.arity, rule.name);
  Env xs = nullptr;
  for (std::size_t j = 0; j < duals.size(); ++j)
    xs = extend(xs, "x" + std::to_string(j + 1), duals[j]->a);
  // the partials, in the forward pass and in the order Drev's target evaluates them (L827, L846)
  Machine partials(m.ledger(), base);
  std::vector<Delta> terms;
  for (std::size_t j = 0; j < duals.size(); ++j) {
    const Delta& u = duals[j]->b->delta;
    if (partial_is_one(rule, j)) { // Fig. 9's +R: u_j itself
      terms.push_back(u);
      continue;
    }
    const Value df = partials.eval(xs, partial_term(rule, j));
    if (df->kind != VK::real) stuck("a partial derivative is not a real", partial_term(rule, j));
    terms.push_back(d_scale(df->real, u));
  }
  Delta rhs = terms.back();
  for (std::size_t j = terms.size() - 1; j-- > 0;)
    rhs = d_add(terms[j], rhs);
  const Value primal =
      m.apply_prim(rule.name, duals.size() == 1 ? duals[0]->a : v_pair(duals[0]->a, duals[1]->a));
  return recorded(m, primal, std::move(rhs));
}

} // namespace

// r ⇓ (r, Zero): Drev{r} = pure (r, Zero), no binding (Fig. 9)
Next e_real_dual(Machine&, const SourceEval::Redex& r, const RuleInfo&) {
  return {v_pair(v_real(r.term->real), v_delta(d_zero()))};
}

// E-Apply-Op overloaded: real primitives record; fromInt gives (n, Zero) and ltR drops the
// Deltas, as their Drev clauses do (translate.cpp); leaf primitives are unchanged.
Value apply_op_recording(const Rules& base, Machine& m, const Apply::Redex& r) {
  const std::string& op = r.f->name;
  if (const DerivativeRule* rule = find_derivative_rule(op))
    return record_primitive(base, m, *rule, r.a);
  if (op == "fromInt") return v_pair(m.apply_prim(op, r.a), v_delta(d_zero()));
  if (op == "ltR") {
    const std::vector<Value> duals = dual_operands(r.a, 2, op);
    return m.apply_prim(op, v_pair(duals[0]->a, duals[1]->a));
  }
  return m.apply_prim(op, r.a);
}

// sumV on dual numbers: Drev{sumV}'s body (arrays.hpp): the dual numbers summed by E-Apply-SumV's
// sum, then deltaLet of the Deltas' sum and (Σ x_i, Var d) (spec §9.12, an extension).
Value apply_sum_v_recording(Machine& m, const Apply::Redex& r) {
  if (r.a->kind != VK::vector)
    throw AdsemError(ErrorKind::eval, "stuck: sumV applied to an argument of the wrong shape");
  const Value sum =
      source_rules::sum_items(m, product_type(real_type(), delta_type()), *r.a->items);
  if (!is_dual(sum))
    throw AdsemError(ErrorKind::eval, "stuck: sumV applied to an argument of the wrong shape");
  return recorded(m, sum->a, sum->b->delta);
}

RulesPtr overloading_rules(const RulesPtr& base) {
  return std::make_shared<const Rules>(base->patched(overloading_implementation(base)));
}

Value run_overloaded(Machine& m, const Term& e, const Value& s0) {
  const Value g = m.eval(nullptr, e);
  return m.apply(g, s0);
}

} // namespace adsem::delta_reverse
