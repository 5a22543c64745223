#include "semantics/delta_reverse/wrappers.hpp"

#include <fmt/format.h>

#include "semantics/delta_reverse/overloading.hpp"
#include "semantics/delta_reverse/translate.hpp"
#include "syntax/delta_reverse/printer.hpp"

namespace adsem::delta_reverse {

namespace {
using VK = ValueNode::Kind;
using TK = TypeNode::Kind;

[[noreturn]] void shape_error(const std::string& what) {
  throw AdsemError(ErrorKind::eval, "wrapper: " + what);
}

// The Delta of a dual number (r, d); anything else is a stuck program (e.g. an ill-typed rule).
const Delta& dual_delta(const Value& v) {
  if (v->kind != VK::pair || v->a->kind != VK::real || v->b->kind != VK::delta)
    shape_error("expected a dual number (r, Delta), got " + print_value(v, nullptr));
  return v->b->delta;
}

double real_at(const Value& v) {
  if (v->kind != VK::real) shape_error("expected a real");
  return v->real;
}

// lookup_S (finalMap, s0) (§11, L925, L941), by the book's Lookup entries: reals read their id's
// adjoint (0 if absent).
Value lookup_value(const Rules& rules, const Value& s0, const Type& s,
                   const std::function<double(std::int64_t)>& adjoint, RuleCounter* coverage) {
  Lookup::Context context;
  context.adjoint = adjoint;
  context.read = [&](const Value& v, const Type& t) -> Value {
    const Lookup::Redex redex{v, t};
    const adsem::Rule<Lookup>* rule = rules.select<Lookup>(context, redex);
    if (rule == nullptr) shape_error("lookup at a non-first-order type");
    note(coverage, rule->info);
    return rule->result(context, redex, rule->info);
  };
  return context.read(s0, s);
}

// The output leaves (t_j, d_j) of a Drev{T} value paired with dt's reals.
void seed_leaves(const Value& r, const Value& dt, std::vector<Delta>& terms) {
  switch (r->kind) {
  case VK::pair:
    if (r->a->kind == VK::real) { // a dual number (t, d)
      terms.push_back(d_scale(real_at(dt), dual_delta(r)));
      return;
    }
    if (dt->kind != VK::pair) shape_error("dt has a different shape from e s");
    seed_leaves(r->a, dt->a, terms);
    seed_leaves(r->b, dt->b, terms);
    return;
  case VK::inl:
  case VK::inr:
    if (dt->kind != r->kind) shape_error("dt has a different tag from e s (§11.2)");
    seed_leaves(r->a, dt->a, terms);
    return;
  default:
    return;
  }
}

} // namespace

namespace wrapper_rules {

Value run_program(Machine& m, const RunProgram::Redex& r, const RuleInfo&) {
  const Value g = m.run(m.eval(nullptr, r.drev_e));
  return m.run(m.apply(g, r.argument));
}

Value lookup_real(Lookup::Context& c, const Lookup::Redex& r, const RuleInfo&) {
  const Delta& d = dual_delta(r.s0);
  return v_real(d->kind == DeltaNode::Kind::var ? c.adjoint(d->id) : 0.0);
}
Value lookup_leaf(Lookup::Context&, const Lookup::Redex& r, const RuleInfo&) {
  return r.s0;
}
Value lookup_product(Lookup::Context& c, const Lookup::Redex& r, const RuleInfo&) {
  return v_pair(c.read(r.s0->a, r.s->left), c.read(r.s0->b, r.s->right));
}
// The tag comes from the actual input (the paper's point on zero_S, L358-362).
Value lookup_sum(Lookup::Context& c, const Lookup::Redex& r, const RuleInfo&) {
  if (r.s0->kind == VK::inl) return v_inl(c.read(r.s0->a, r.s->left));
  return v_inr(c.read(r.s0->a, r.s->right));
}

} // namespace wrapper_rules

Program program_of(const Term& elaborated, const Type& type) {
  if (type->kind != TK::arrow || !first_order(type->left) || !first_order(type->right))
    throw AdsemError(ErrorKind::type, "a main expression has type S -> T with S and T first-order "
                                      "(L111-121, §11), not " +
                                          print_type(type));
  return {elaborated, type->left, type->right};
}

PrimalRun run_primal(const Program& p, const Value& s, long fuel,
                     const std::shared_ptr<RuleCounter>& coverage, const Rules& rules) {
  Ledger ledger;
  ledger.fuel = fuel;
  ledger.coverage = coverage;
  Machine m(ledger, rules);
  const Value f = m.eval(nullptr, p.term);
  PrimalRun out;
  out.result = m.apply(f, s);
  out.steps = ledger.steps;
  out.real_prim_calls = m.counters.real_prim_calls;
  return out;
}

Value zip_value(const Value& s, const Value& ds) {
  switch (s->kind) {
  case VK::real:
    return v_pair(s, v_real(real_at(ds)));
  case VK::pair:
    if (ds->kind != VK::pair) shape_error("zip: the tangent has a different shape");
    return v_pair(zip_value(s->a, ds->a), zip_value(s->b, ds->b));
  case VK::inl:
  case VK::inr:
    if (ds->kind != s->kind) shape_error("zip: the tangent's tag differs from the point's");
    return s->kind == VK::inl ? v_inl(zip_value(s->a, ds->a)) : v_inr(zip_value(s->a, ds->a));
  default:
    return s;
  }
}

Value delta_value(const Value& v) {
  switch (v->kind) {
  case VK::pair:
    if (v->a->kind == VK::real &&
        (v->b->kind == VK::real || v->b->kind == VK::delta || v->b->kind == VK::dense))
      return v->b;
    return v_pair(delta_value(v->a), delta_value(v->b));
  case VK::inl:
    return v_inl(delta_value(v->a));
  case VK::inr:
    return v_inr(delta_value(v->a));
  default:
    return v;
  }
}

Value primal_value(const Value& v) {
  switch (v->kind) {
  case VK::pair:
    if (v->a->kind == VK::real &&
        (v->b->kind == VK::real || v->b->kind == VK::delta || v->b->kind == VK::dense))
      return v->a;
    return v_pair(primal_value(v->a), primal_value(v->b));
  case VK::inl:
    return v_inl(primal_value(v->a));
  case VK::inr:
    return v_inr(primal_value(v->a));
  default:
    return v;
  }
}

Value init_vars(const Value& s, std::int64_t& last) {
  switch (s->kind) {
  case VK::real:
    return v_pair(s, v_delta(d_var(++last)));
  case VK::pair: {
    const Value a = init_vars(s->a, last); // left to right
    return v_pair(a, init_vars(s->b, last));
  }
  case VK::inl:
    return v_inl(init_vars(s->a, last));
  case VK::inr:
    return v_inr(init_vars(s->a, last));
  default:
    return s;
  }
}

Value init_zeros(const Value& dt) {
  switch (dt->kind) {
  case VK::real:
    return v_pair(dt, v_delta(d_zero()));
  case VK::pair:
    return v_pair(init_zeros(dt->a), init_zeros(dt->b));
  case VK::inl:
    return v_inl(init_zeros(dt->a));
  case VK::inr:
    return v_inr(init_zeros(dt->a));
  default:
    return dt;
  }
}

Value zero_like(const Type& t) {
  switch (t->kind) {
  case TK::real:
    return v_real(0.0);
  case TK::integer:
    return v_int(0);
  case TK::product:
    return v_pair(zero_like(t->left), zero_like(t->right));
  case TK::sum:
    return v_inl(zero_like(t->left));
  default:
    shape_error("no zero at type " + print_type(t));
  }
}

Term odot_term(const Type& t) {
  const Type pt = product_type(t, t);
  switch (t->kind) {
  case TK::real: // odot_R = \(p : R*R). fst p * snd p
    return lam("p", pt, call("mulR", fst(var("p")), snd(var("p"))));
  case TK::integer: // odot_Z = 0.0 [proposal]
    return lam("p", pt, real(0.0));
  case TK::product:
    return lam("p", pt,
               call("addR", app(odot_term(t->left), pair(fst(fst(var("p"))), fst(snd(var("p"))))),
                    app(odot_term(t->right), pair(snd(fst(var("p"))), snd(snd(var("p")))))));
  case TK::sum:
    return lam("p", pt,
               case_of(fst(var("p")), "a",
                       case_of(snd(var("p")), "b",
                               app(odot_term(t->left), pair(var("a"), var("b"))), "c", real(0.0)),
                       "a2",
                       case_of(snd(var("p")), "b2", real(0.0), "c2",
                               app(odot_term(t->right), pair(var("a2"), var("c2"))))));
  default:
    shape_error("odot at a non-first-order type");
  }
}

ForwardRun forward(const Program& p, const Value& s, const Value& ds, const RunSetup& setup,
                   long fuel) {
  Ledger ledger;
  ledger.fuel = fuel;
  ledger.coverage = setup.coverage;
  Machine m(ledger, *setup.rules);
  const Value f = m.eval(nullptr, translate(Translation::dfwd, p.term, setup));
  const Value out = m.apply(f, zip_value(s, ds));
  return {primal_value(out), delta_value(out), ledger.steps};
}

namespace {
// How the wrapper gets e's Drev{T} result: Drev{e} translated here, Drev{e} given, or e run by the
// overloading interpreter (overloading.hpp).
enum class Run { translated, given, overloaded };
ReverseRun reverse_impl(const Program& p, Run how, const Term* given, const Value& s,
                        const Value& dt, Wrapper w, EvalImpl impl, const RunSetup& setup, long fuel,
                        bool trace);
} // namespace

ReverseRun reverse(const Program& p, const Value& s, const Value& dt, Wrapper w, EvalImpl impl,
                   const RunSetup& setup, long fuel, bool trace) {
  return reverse_impl(p, Run::translated, nullptr, s, dt, w, impl, setup, fuel, trace);
}

ReverseRun reverse_translated(const Program& p, const Term& drev_e, const Value& s, const Value& dt,
                              Wrapper w, EvalImpl impl, const RunSetup& setup, long fuel) {
  if (w == Wrapper::fig15) throw AdsemError(ErrorKind::usage, "Fig. 15 translates e itself");
  return reverse_impl(p, Run::given, &drev_e, s, dt, w, impl, setup, fuel, false);
}

ReverseRun reverse_overloaded(const Program& p, const Value& s, const Value& dt, Wrapper w,
                              EvalImpl impl, const RunSetup& setup, long fuel, bool trace) {
  return reverse_impl(p, Run::overloaded, nullptr, s, dt, w, impl, setup, fuel, trace);
}

namespace {
ReverseRun reverse_impl(const Program& p, Run how, const Term* given, const Value& s,
                        const Value& dt, Wrapper w, EvalImpl impl, const RunSetup& setup, long fuel,
                        bool trace) {
  ReverseRun out;
  out.ledger.fuel = fuel;
  out.ledger.trace = trace;
  out.ledger.coverage = setup.coverage;
  // the overloading interpreter runs e on the overloaded book; eval and lookup use setup's
  const RulesPtr machine_rules =
      how == Run::overloaded ? overloading_rules(setup.rules) : setup.rules;
  Machine m(out.ledger, *machine_rules);
  std::int64_t last = 0;
  out.s0 = init_vars(s, last);
  out.inputs = last;
  out.first_id = last + 1;
  m.state.next = out.first_id; // runDelta (dv + 1)
  Term main = p.term;
  Value argument = out.s0;
  if (w == Wrapper::fig11 && p.t->kind != TK::real)
    throw AdsemError(ErrorKind::usage, "the Fig. 11 wrapper needs T = Real");
  if (w == Wrapper::fig15) { // Drev{λ(s', dt'). (e s') ⊙_T dt'} applied to (s0, initZeros dt)
    main = lam("q", product_type(p.s, p.t),
               app(odot_term(p.t), pair(app(p.term, fst(var("q"))), snd(var("q")))));
    argument = v_pair(out.s0, init_zeros(dt));
  }
  if (how == Run::overloaded) {
    out.result = run_overloaded(m, main, argument);
  } else { // do { g <- Drev{e}; g s0 }, in one runDelta
    const Term drev_e = how == Run::given ? *given : translate(Translation::drev, main, setup);
    out.result = fire_entry<RunProgram>(*setup.rules, m, {drev_e, argument, out.first_id},
                                        setup.coverage.get(), "the wrapper's run");
  }
  out.program_steps = out.ledger.steps;
  out.real_prim_calls = m.counters.real_prim_calls;
  out.binds = m.state.binds;
  out.next = m.state.next;
  out.primal = primal_value(out.result);
  switch (w) {
  case Wrapper::fig11:
    out.final_delta = dual_delta(out.result);
    out.seed = real_at(dt);
    break;
  case Wrapper::fig15:
    out.final_delta = dual_delta(out.result);
    out.seed = 1.0; // seed L913: eval 1.0
    break;
  case Wrapper::seeded: {
    std::vector<Delta> terms;
    seed_leaves(out.result, dt, terms);
    Delta d = terms.empty() ? d_zero() : terms.back();
    for (std::size_t i = terms.size() - 1; i-- > 0 && !terms.empty();)
      d = d_add(terms[i], d);
    out.final_delta = d;
    out.seed = 1.0;
    break;
  }
  }
  const long before = out.ledger.steps;
  const Rules& rules = *setup.rules;
  RuleCounter* coverage = setup.coverage.get();
  if (impl == EvalImpl::map) {
    const Delta u = run_delta(out.binds, out.final_delta, out.ledger, rules);
    DeltaMap map;
    eval_map(out.seed, u, map, out.ledger, rules);
    out.gradient = lookup_value(
        rules, out.s0, p.s,
        [&](std::int64_t id) {
          const auto it = map.find(id);
          return it == map.end() ? 0.0 : it->second; // lookupOrZero
        },
        coverage);
  } else {
    const std::vector<double> grad =
        sweep(out.seed, out.final_delta, out.binds, out.next, out.ledger, rules);
    out.gradient = lookup_value(
        rules, out.s0, p.s, [&](std::int64_t id) { return grad.at(static_cast<std::size_t>(id)); },
        coverage);
  }
  out.eval_visits = out.ledger.steps - before;
  out.steps = out.ledger.steps;
  return out;
}
} // namespace

namespace {
bool has_sum(const Type& t) {
  if (t->kind == TK::sum) return true;
  if (t->kind == TK::product) return has_sum(t->left) || has_sum(t->right);
  return false;
}
std::size_t count_reals(const Value& v) {
  return flatten_reals(v).size();
}
// Seeds real slot i (0-based, left to right) with make(i, r).
template <class Make> Value seed_slots(const Value& s, std::size_t& i, const Make& make) {
  switch (s->kind) {
  case VK::real:
    return make(i++, s->real);
  case VK::pair: {
    const Value a = seed_slots(s->a, i, make);
    return v_pair(a, seed_slots(s->b, i, make));
  }
  case VK::inl:
    return v_inl(seed_slots(s->a, i, make));
  case VK::inr:
    return v_inr(seed_slots(s->a, i, make));
  default:
    return s;
  }
}
} // namespace

DenseRun reverse1(const Program& p, const Value& s, double dt, const RunSetup& setup, long fuel) {
  if (p.t->kind != TK::real || has_sum(p.s))
    throw AdsemError(ErrorKind::usage,
                     "reverse #1 needs T = Real and S without sums (zero_S, L358-362)");
  Ledger ledger;
  ledger.fuel = fuel;
  ledger.coverage = setup.coverage;
  Machine m(ledger, *setup.rules);
  const std::size_t a = count_reals(s);
  m.dense_dimension = static_cast<int>(a);
  std::size_t i = 0;
  const Value seeded = seed_slots(s, i, [&](std::size_t k, double r) {
    std::vector<double> e(a, 0.0);
    e[k] = dt; // dt ⊗ onehot k
    m.counters.dense_flops += static_cast<long>(a);
    return v_pair(v_real(r), v_dense(std::move(e)));
  });
  const Value f = m.eval(nullptr, translate(Translation::drev1, p.term, setup));
  const Value out = m.apply(f, seeded);
  DenseRun run;
  if (out->kind != VK::pair || out->b->kind != VK::dense) shape_error("expected (r, δS)");
  run.primal = out->a;
  std::size_t next = 0;
  run.gradient = unflatten_reals(s, *out->b->dense, next);
  run.steps = ledger.steps;
  run.dense_flops = m.counters.dense_flops;
  run.ledger = ledger;
  return run;
}

Delta2Run reverse2(const Program& p, const Value& s, double dt, const RunSetup& setup, long fuel) {
  if (p.t->kind != TK::real) throw AdsemError(ErrorKind::usage, "reverse #2 needs T = Real");
  Ledger ledger;
  ledger.fuel = fuel;
  ledger.coverage = setup.coverage;
  Machine m(ledger, *setup.rules);
  std::size_t i = 0;
  const Value seeded = seed_slots(s, i, [](std::size_t k, double r) {
    return v_pair(v_real(r), v_delta(d_onehot(static_cast<std::int64_t>(k) + 1)));
  });
  const Value f = m.eval(nullptr, translate(Translation::drev2, p.term, setup));
  const Value out = m.apply(f, seeded);
  Delta2Run run;
  run.primal = out->a;
  run.delta = dual_delta(out);
  const long before = ledger.steps;
  std::vector<double> z(i, 0.0); // (0, ..., 0), mutable, used linearly
  eval2(dt, run.delta, z, ledger, *setup.rules);
  run.eval2_visits = ledger.steps - before;
  std::size_t next = 0;
  run.gradient = unflatten_reals(s, z, next);
  run.steps = ledger.steps;
  run.ledger = ledger;
  return run;
}

bool zero_or_var_only(const Value& v) {
  switch (v->kind) {
  case VK::delta:
    return v->delta->kind == DeltaNode::Kind::zero || v->delta->kind == DeltaNode::Kind::var;
  case VK::pair:
    return zero_or_var_only(v->a) && zero_or_var_only(v->b);
  case VK::inl:
  case VK::inr:
    return zero_or_var_only(v->a);
  case VK::closure: {
    for (const EnvNode* at = v->env.get(); at != nullptr; at = at->next.get())
      if (!zero_or_var_only(at->value)) return false;
    return true;
  }
  default:
    return true;
  }
}

void collect_var_ids(const Delta& d, std::vector<std::int64_t>& out) {
  std::vector<const DeltaNode*> stack = {d.get()};
  while (!stack.empty()) {
    const DeltaNode* at = stack.back();
    stack.pop_back();
    if (at->kind == DeltaNode::Kind::var) out.push_back(at->id);
    if (at->a) stack.push_back(at->a.get());
    if (at->b) stack.push_back(at->b.get());
  }
}

std::optional<std::string> tape_order_error(const ReverseRun& run) {
  std::int64_t expect = run.first_id;
  for (const auto& [id, rhs] : run.binds) {
    if (id != expect)
      return fmt::format("binding id {} where {} was next (ids must be fresh, increasing)", id,
                         expect);
    ++expect;
    if (delta_nodes(rhs) > 5)
      return fmt::format("binding {} has {} nodes (> 5 for a binary primitive)", id,
                         delta_nodes(rhs));
    std::vector<std::int64_t> refs;
    collect_var_ids(rhs, refs);
    for (const std::int64_t r : refs)
      if (r < 1 || r >= id || (r > run.inputs && r < run.first_id))
        return fmt::format(
            "binding {} = {} refers to id {}, neither an input nor an earlier binding", id,
            print_delta(rhs), r);
  }
  if (run.next != expect) return "the state's next id does not follow the last binding";
  return std::nullopt;
}

} // namespace adsem::delta_reverse
