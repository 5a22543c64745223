// Theorem 4 (seed 001 L784-787, Fig. 13 L743-778; spec §6 P8 executable version):
//  1. Γ = z_1..z_a : R, h : R → R. Each z_i is bound to (x_i, Var i); h is bound to the pair
//     (⟦g⟧, Drev{g}) for a generated g with free z's, evaluated in the same environment and state
//     (closures capture dual numbers: the "functional probing" step).
//  2. Drev{e} runs from a state that already holds junk bindings a+1..a+J (∀C' ⊇ C).
//  3. The result is checked against ⟦e⟧ by type: reals (primal, Zero/Var, the dense meaning of
//     the tape at the Delta = the model's gradient), sums (tags), products (componentwise),
//     functions (applied to a related argument (c, Zero) in the current state, recursively).
//  4. The junk bindings are unchanged (Kripke monotonicity, Lemma 10 / P11).
#include "properties/delta_reverse/fundamental_property.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include "generators/core/uniform.hpp"
#include "properties/core/discards.hpp"
#include "properties/delta_reverse/support.hpp"
#include "semantics/core/jacobian.hpp"
#include "semantics/delta_reverse/delta_eval.hpp"
#include "semantics/delta_reverse/denotation.hpp"
#include "semantics/delta_reverse/model_bridge.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {
using props::PropertyContext;
using props::TrialResult;
using namespace support;
using TK = TypeNode::Kind;
using VK = ValueNode::Kind;

// The dual-number leaves (primal, Delta) of a Drev value, left to right (sums: the payload).
void leaves(const Value& v, std::vector<std::pair<double, Delta>>& out) {
  if (v->kind == VK::pair && v->a->kind == VK::real && v->b->kind == VK::delta) {
    out.emplace_back(v->a->real, v->b->delta);
  } else if (v->kind == VK::pair) {
    leaves(v->a, out);
    leaves(v->b, out);
  } else if (v->kind == VK::inl || v->kind == VK::inr) {
    leaves(v->a, out);
  }
}

TrialResult fundamental(const PropertyContext& context) {
  const int a = *rc::gen::inRange(1, 4); // grows with the size
  Context gamma;
  for (int i = 1; i <= a; ++i)
    gamma.emplace_back("z" + std::to_string(i), real_type());
  const Type rr = arrow_type(real_type(), real_type());
  const Term g = *gen::term(gamma, rr, 2);
  gamma.emplace_back("h", rr);
  static const std::vector<Type> results = {real_type(), product_type(real_type(), real_type()),
                                            sum_type(real_type(), real_type()),
                                            arrow_type(real_type(), real_type())};
  const Type type = *rc::gen::elementOf(results);
  const Term e = *gen::term(gamma, type, 3);
  std::vector<double> x;
  for (int i = 0; i < a; ++i)
    x.push_back(adsem::gen::uniform_in(-2000, 2001) / 1000.0);
  const double c =
      adsem::gen::uniform_in(-2000, 2001) / 1000.0; // the argument of a function result
  const int junk = adsem::gen::uniform_in(0, 4);
  TrialResult r = guarded([&]() -> TrialResult {
    const RunSetup v = setup_of(context);
    // the model's side: \(p : R^a). let z_i = ... in let h = g in e [c]
    Type s = real_type();
    for (int i = 1; i < a; ++i)
      s = product_type(real_type(), s);
    Term body = let("h", g, type->kind == TK::arrow ? app(e, real(c)) : e);
    Term rest = var("p");
    std::vector<std::pair<std::string, Term>> binds;
    for (int i = 1; i <= a; ++i) {
      binds.emplace_back("z" + std::to_string(i), i < a ? fst(rest) : rest);
      rest = snd(rest);
    }
    for (std::size_t i = binds.size(); i-- > 0;)
      body = let(binds[i].first, binds[i].second, body);
    const Term closed = lam("p", s, body);
    Value point = v_real(x.back());
    for (int i = a - 1; i-- > 0;)
      point = v_pair(v_real(x[static_cast<std::size_t>(i)]), point);
    const model::Value<double> fm = denote_closed<double>(closed);
    const model::Value<double> meaning = fm(to_model(point));
    const Eigen::MatrixXd j = model::jacobian(fm, to_model(point));
    require_finite(j);
    // the calculus's side
    Ledger ledger;
    ledger.fuel = fuel(context);
    ledger.coverage = context.rule_counter;
    Machine m(ledger, *setup_of(context).rules);
    for (int k = 1; k <= junk; ++k) { // junk bindings a+1..a+J (a world C' ⊇ C)
      m.state.binds.emplace_back(a + k, d_scale(0.5 * k, d_var(1 + (k % a))));
    }
    m.state.next = a + junk + 1;
    const Binds before = m.state.binds;
    Env env;
    for (int i = 1; i <= a; ++i)
      env = extend(env, "z" + std::to_string(i),
                   v_pair(v_real(x[static_cast<std::size_t>(i - 1)]), v_delta(d_var(i))));
    env = extend(env, "h", m.run(m.eval(env, translate(Translation::drev, g, v))));
    Value result = m.run(m.eval(env, translate(Translation::drev, e, v)));
    if (type->kind == TK::arrow) // apply to the related argument (c, Zero), same state
      result = m.run(m.apply(result, v_pair(v_real(c), v_delta(d_zero()))));
    for (std::size_t k = 0; k < before.size(); ++k)
      if (m.state.binds[k] != before[k])
        return TrialResult::fail("a junk binding was changed (Lemma 10: bindings only appended)");
    if (has_non_finite_coefficient(m.state.binds))
      return TrialResult::discard(props::discards::overflow);
    if (!zero_or_var_only(result))
      return TrialResult::fail("a dual number carries a Delta other than Zero or Var");
    const Value primal = primal_value(result);
    const Value expected = from_model(meaning);
    if (!same_shape(expected, primal))
      return TrialResult::fail(fmt::format("Drev{{e}} returned {} where ⟦e⟧ = {}",
                                           print_value(primal, nullptr),
                                           print_value(expected, nullptr)));
    std::vector<std::pair<double, Delta>> duals;
    leaves(result, duals);
    const std::vector<double> want = flatten_reals(expected);
    for (std::size_t i = 0; i < duals.size(); ++i) {
      TrialResult cmp = props::compare_reals(want[i], fmt::format("⟦e⟧[{}]", i), duals[i].first,
                                             fmt::format("primal[{}]", i), CheckKind::exact_value,
                                             context.tolerance(CheckKind::exact_value));
      if (cmp.kind != TrialResult::Kind::pass) return cmp;
      const Eigen::VectorXd grad = dense_tape(m.state.binds, duals[i].second, a);
      for (int k = 0; k < a; ++k) {
        cmp = props::compare_reals(j(static_cast<Eigen::Index>(i), k),
                                   fmt::format("∂⟦e⟧[{}]/∂z{} (model)", i, k + 1), grad(k),
                                   fmt::format("⟦get C'' d[{}]⟧_D[{}]", i, k + 1),
                                   CheckKind::derivative, context.tolerance(CheckKind::derivative));
        if (cmp.kind != TrialResult::Kind::pass) return cmp;
      }
    }
    return TrialResult::pass();
  });
  r.on(r.shows_input() ? print(e) : std::string(), print_type(type), static_cast<int>(size_of(e)),
       gen::tags_of(e));
  return r;
}

} // namespace

props::PropertyDef fundamental_property() {
  return props::PropertyDef{
      "delta-reverse",
      "delta-reverse/fundamental-property",
      "ad-correctness",
      "Drev{e} is related to ⟦e⟧ (Thm. 4) with function-typed variables bound to related pairs "
      "(probing), from a world with junk bindings",
      "spec §6 P8; Thm. 4 L784-787, Fig. 13 L743-778, Lemma 10 L1051-1053",
      fundamental};
}

} // namespace adsem::delta_reverse
