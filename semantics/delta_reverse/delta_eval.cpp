#include "semantics/delta_reverse/delta_eval.hpp"

#include <algorithm>

#include "semantics/delta_reverse/setup.hpp"
#include "syntax/core/deep_walk.hpp"

namespace adsem::delta_reverse {

namespace {
using DK = DeltaNode::Kind;
} // namespace

void MapEval::eval(double x, const Delta& u) {
  deeper(depth, [&] { eval_here(x, u); });
}

void MapEval::eval_here(double x, const Delta& u) {
  const DepthGuard guard(depth);
  fire_step<DeltaEval>(rules, *this, {x, u}, ledger,
                       "eval: OneHot is a Delta2 constructor (Fig. 7)");
}

void eval_let_binding(MapEval& c, const DeltaNode& let) {
  const auto it = c.m.find(let.id);
  fire_step<LetLookup>(c.rules, c, {let, it, it != c.m.end()}, c.ledger,
                       "eval: no rule of the book looks the Let's id up");
}

std::pair<std::vector<const DeltaNode*>, Delta> let_spine(const Delta& u) {
  std::vector<const DeltaNode*> spine;
  const DeltaNode* at = u.get();
  while (at->kind == DK::let) {
    spine.push_back(at);
    at = at->b.get();
  }
  return {std::move(spine), Delta(u, at)};
}

void ArraySweep::sweep(double x, const DeltaNode* u) {
  // Iterative: the rhs of a binding has ≤ 5 nodes for binary primitives, but user Deltas may be
  // deeper; an explicit stack keeps the C++ stack flat.
  stack.emplace_back(x, u);
  while (!stack.empty()) {
    const auto [s, at] = stack.back();
    stack.pop_back();
    fire_step<Sweep>(rules, *this, {s, at}, ledger, "sweep: a tape rhs holds no Let/OneHot");
  }
}

void sweep_binding(ArraySweep& c, const std::pair<std::int64_t, Delta>& b) {
  fire_step<TapeBinding>(c.rules, c, {b, c.touched[static_cast<std::size_t>(b.first)] != 0},
                         c.ledger, "sweep: no rule of the book takes the binding");
}

Delta wrap_binding(DeltaFold& fold, const std::pair<std::int64_t, Delta>& binding,
                   const Delta& body) {
  return fire_step<Wrap>(fold.rules, fold, {binding, body}, fold.ledger,
                         "runDelta: no rule of the book wraps the binding");
}

void Delta2Walk::eval2(double x, const DeltaNode* u) {
  stack.emplace_back(x, u);
  while (!stack.empty()) {
    const auto [s, at] = stack.back();
    stack.pop_back();
    fire_step<DeltaEval2>(rules, *this, {s, at}, ledger,
                          "eval_2: Var/Let are not Delta2 constructors");
  }
}

namespace delta_rules {

Delta run_delta(DeltaFold& fold, const RunDelta::Redex& r, const RuleInfo&) {
  Delta out = r.result;
  // foldl over newest-first: newest innermost
  for (auto it = r.binds.rbegin(); it != r.binds.rend(); ++it)
    out = wrap_binding(fold, *it, out);
  return out;
}
// wrap (id, rhs) d = Let id rhs d
Delta wrap(DeltaFold&, const Wrap::Redex& r, const RuleInfo&) {
  return d_let(r.binding.first, r.binding.second, r.body);
}

// eval x Zero m = m
void eval_zero(MapEval&, const DeltaEval::Redex&, const RuleInfo&) {}
// eval x (Scale y u) m = eval (x × y) u m
void eval_scale(MapEval& c, const DeltaEval::Redex& r, const RuleInfo&) {
  c.eval(r.x * r.u->r, r.u->a);
}
// eval x (Add u1 u2) m = eval x u2 (eval x u1 m)
void eval_add(MapEval& c, const DeltaEval::Redex& r, const RuleInfo&) {
  c.eval(r.x, r.u->a);
  c.eval(r.x, r.u->b);
}
// eval x (Var id) m = addDelta id x m
void eval_var(MapEval& c, const DeltaEval::Redex& r, const RuleInfo&) {
  c.m[r.u->id] += r.x; // operator[] creates the entry at 0.0: 0.0 + x == x exactly
}
// case lookup id m2 of Nothing -> m2
void let_nothing(MapEval&, const LetLookup::Redex&, const RuleInfo&) {}
// case lookup id m2 of Just x' -> eval x' u1 (delete id m2)
void let_just(MapEval& c, const LetLookup::Redex& r, const RuleInfo&) {
  const double adjoint = r.at->second;
  c.m.erase(r.at);
  c.eval(adjoint, r.let.a);
}
// eval x (Let id u1 u2) m = let m2 = eval x u2 m in case lookup id m2 of
//   Nothing -> m2 ; Just x' -> eval x' u1 (delete id m2)
// The Let spine (runDelta's nest) is walked with a loop: body first, then the rhs from the
// innermost Let outwards.
void eval_let(MapEval& c, const DeltaEval::Redex& r, const RuleInfo&) {
  const auto [spine, body] = let_spine(r.u);
  c.eval(r.x, body);
  for (auto it = spine.rbegin(); it != spine.rend(); ++it)
    eval_let_binding(c, **it);
}

void sweep_zero(ArraySweep&, const Sweep::Redex&, const RuleInfo&) {}
void sweep_scale(ArraySweep& c, const Sweep::Redex& r, const RuleInfo&) {
  c.stack.emplace_back(r.x * r.u->r, r.u->a.get());
}
void sweep_add(ArraySweep& c, const Sweep::Redex& r, const RuleInfo&) {
  c.stack.emplace_back(r.x, r.u->b.get()); // u1 first: pushed last
  c.stack.emplace_back(r.x, r.u->a.get());
}
void sweep_var(ArraySweep& c, const Sweep::Redex& r, const RuleInfo&) {
  const std::int64_t id = r.u->id;
  if (id < 0 || static_cast<std::size_t>(id) >= c.grad.size())
    throw AdsemError(ErrorKind::eval, "sweep: id " + std::to_string(id) + " out of range");
  const auto i = static_cast<std::size_t>(id);
  c.grad[i] += r.x;
  c.touched[i] = 1;
}
// The "Nothing" branch: an untouched id is skipped, not multiplied by 0.
void tape_skip(ArraySweep&, const TapeBinding::Redex&, const RuleInfo&) {}
// The "Just" branch: the rhs swept with the id's completed adjoint, the id deleted (Fig. 10).
void tape_binding(ArraySweep& c, const TapeBinding::Redex& r, const RuleInfo&) {
  const auto i = static_cast<std::size_t>(r.binding.first);
  const double adjoint = c.grad[i];
  c.grad[i] = 0.0;
  c.touched[i] = 0;
  c.sweep(adjoint, r.binding.second.get());
}
// The bindings from the newest to the oldest (reverse topological order, L540-571).
void sweep_tape(ArraySweep& c, const SweepTape::Redex& r, const RuleInfo&) {
  for (auto it = r.binds.rbegin(); it != r.binds.rend(); ++it)
    sweep_binding(c, *it);
}

// eval_2 x Zero v = v
void eval2_zero(Delta2Walk&, const DeltaEval2::Redex&, const RuleInfo&) {}
// eval_2 x (OneHot i) v = updateAt i x v (1-based)
void eval2_onehot(Delta2Walk& c, const DeltaEval2::Redex& r, const RuleInfo&) {
  if (r.u->id < 1 || static_cast<std::size_t>(r.u->id) > c.acc.size())
    throw AdsemError(ErrorKind::eval, "eval_2: OneHot index out of range");
  c.acc[static_cast<std::size_t>(r.u->id - 1)] += r.x;
}
// eval_2 x (Scale y u) v = eval_2 (x × y) u v
void eval2_scale(Delta2Walk& c, const DeltaEval2::Redex& r, const RuleInfo&) {
  c.stack.emplace_back(r.x * r.u->r, r.u->a.get());
}
// eval_2 x (Add u1 u2) v = eval_2 x u2 (eval_2 x u1 v): u1 first, pushed last
void eval2_add(Delta2Walk& c, const DeltaEval2::Redex& r, const RuleInfo&) {
  c.stack.emplace_back(r.x, r.u->b.get());
  c.stack.emplace_back(r.x, r.u->a.get());
}

} // namespace delta_rules

Delta run_delta(const Binds& binds, const Delta& result, Ledger& ledger, const Rules& rules) {
  DeltaFold fold{rules, ledger};
  return fire_entry<RunDelta>(rules, fold, {binds, result}, ledger.coverage.get(),
                              "runDelta's fold");
}

void eval_map(double x, const Delta& u, DeltaMap& m, Ledger& ledger, const Rules& rules) {
  MapEval context{rules, m, ledger};
  context.eval(x, u);
}

std::vector<double> sweep(double dt, const Delta& result, const Binds& binds, std::int64_t next,
                          Ledger& ledger, const Rules& rules) {
  const auto size = static_cast<std::size_t>(std::max<std::int64_t>(next, 1));
  std::vector<double> grad(size, 0.0);
  std::vector<char> touched(size, 0);
  ArraySweep context{rules, grad, touched, ledger};
  context.sweep(dt, result.get());
  fire_entry<SweepTape>(rules, context, {binds}, ledger.coverage.get(), "the pass over the tape");
  return grad;
}

void eval2(double x, const Delta& u, std::vector<double>& acc, Ledger& ledger, const Rules& rules) {
  Delta2Walk context{rules, acc, ledger};
  context.eval2(x, u.get());
}

Eigen::VectorXd dense_meaning(const Delta& u, const std::map<std::int64_t, Eigen::VectorXd>& gamma,
                              int dimension) {
  switch (u->kind) {
  case DK::zero:
    return Eigen::VectorXd::Zero(dimension);
  case DK::scale:
    return u->r * dense_meaning(u->a, gamma, dimension);
  case DK::add:
    return dense_meaning(u->a, gamma, dimension) + dense_meaning(u->b, gamma, dimension);
  case DK::var: {
    const auto it = gamma.find(u->id);
    if (it == gamma.end())
      throw AdsemError(ErrorKind::eval, "dense meaning: unbound id " + std::to_string(u->id));
    return it->second;
  }
  case DK::let: {
    auto inner = gamma;
    inner[u->id] = dense_meaning(u->a, gamma, dimension);
    return dense_meaning(u->b, inner, dimension);
  }
  case DK::onehot:
    break;
  }
  throw AdsemError(ErrorKind::eval, "dense meaning: OneHot is not a Delta constructor");
}

Eigen::VectorXd dense_tape(const Binds& binds, const Delta& result, int inputs) {
  std::map<std::int64_t, Eigen::VectorXd> gamma;
  for (int i = 1; i <= inputs; ++i)
    gamma[i] = Eigen::VectorXd::Unit(inputs, i - 1);
  for (const auto& [id, rhs] : binds)
    gamma[id] = dense_meaning(rhs, gamma, inputs);
  return dense_meaning(result, gamma, inputs);
}

} // namespace adsem::delta_reverse
