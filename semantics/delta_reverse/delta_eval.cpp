#include "semantics/delta_reverse/delta_eval.hpp"

#include <algorithm>

#include "syntax/core/depth_guard.hpp"

namespace adsem::delta_reverse {

namespace {
using DK = DeltaNode::Kind;

// Fig. 10's eval on everything but the Let spine (rhs trees are small; random Deltas of P12 are
// bounded in depth; the depth guard turns anything deeper into a clear error).
void eval_tree(double x, const Delta& u, DeltaMap& m, Ledger& ledger, const Variant& v,
               DepthBudget& depth) {
  const DepthGuard guard(depth);
  switch (u->kind) {
  case DK::zero: // eval x Zero m = m
    ledger.fire(Rule::Eval_Zero);
    return;
  case DK::scale: // eval x (Scale y u) m = eval (x × y) u m
    ledger.fire(Rule::Eval_Scale);
    eval_tree(x * u->r, u->a, m, ledger, v, depth);
    return;
  case DK::add: // eval x (Add u1 u2) m = eval x u2 (eval x u1 m)
    ledger.fire(Rule::Eval_Add);
    eval_tree(x, u->a, m, ledger, v, depth);
    eval_tree(x, u->b, m, ledger, v, depth);
    return;
  case DK::var: // eval x (Var id) m = addDelta id x m
    ledger.fire(Rule::Eval_Var);
    if (v.eval_overwrites)
      m[u->id] = x; // mutant: overwrite on fan-out
    else
      m[u->id] += x; // operator[] creates the entry at 0.0: 0.0 + x == x exactly
    return;
  case DK::let: {
    // eval x (Let id u1 u2) m = let m2 = eval x u2 m in case lookup id m2 of
    //   Nothing -> m2 ; Just x' -> eval x' u1 (delete id m2)
    // The Let spine (runDelta's nest) is walked with a loop: body first, then the rhs from the
    // innermost Let outwards.
    std::vector<const DeltaNode*> spine;
    const DeltaNode* at = u.get();
    while (at->kind == DK::let) {
      spine.push_back(at);
      at = at->b.get();
    }
    eval_tree(x, Delta(u, at), m, ledger, v, depth);
    const auto visit = [&](const DeltaNode* let) {
      const auto it = m.find(let->id);
      if (it == m.end()) {
        ledger.fire(Rule::Eval_Let_Nothing);
        return;
      }
      ledger.fire(Rule::Eval_Let_Just);
      const double adjoint = it->second;
      m.erase(it);
      eval_tree(adjoint, let->a, m, ledger, v, depth);
    };
    if (v.eval_allocation_order) // mutant: outermost (oldest) first
      std::for_each(spine.begin(), spine.end(), visit);
    else
      std::for_each(spine.rbegin(), spine.rend(), visit);
    return;
  }
  case DK::onehot:
    throw AdsemError(ErrorKind::eval, "eval: OneHot is a Delta2 constructor (Fig. 7)");
  }
}

void sweep_tree(double x, const DeltaNode* u, std::vector<double>& grad, std::vector<char>& touched,
                Ledger& ledger, const Variant& v) {
  // Iterative: the rhs of a binding has ≤ 5 nodes for binary primitives, but user Deltas may be
  // deeper; an explicit stack keeps the C++ stack flat.
  std::vector<std::pair<double, const DeltaNode*>> stack = {{x, u}};
  while (!stack.empty()) {
    const auto [s, at] = stack.back();
    stack.pop_back();
    switch (at->kind) {
    case DK::zero:
      ledger.fire(Rule::Sweep_Zero);
      break;
    case DK::scale:
      ledger.fire(Rule::Sweep_Scale);
      stack.emplace_back(s * at->r, at->a.get());
      break;
    case DK::add:
      ledger.fire(Rule::Sweep_Add);
      stack.emplace_back(s, at->b.get()); // u1 first: pushed last
      stack.emplace_back(s, at->a.get());
      break;
    case DK::var: {
      ledger.fire(Rule::Sweep_Var);
      if (at->id < 0 || static_cast<std::size_t>(at->id) >= grad.size())
        throw AdsemError(ErrorKind::eval, "sweep: id " + std::to_string(at->id) + " out of range");
      const auto i = static_cast<std::size_t>(at->id);
      if (v.eval_overwrites)
        grad[i] = s;
      else
        grad[i] += s;
      touched[i] = 1;
      break;
    }
    case DK::let:
    case DK::onehot:
      throw AdsemError(ErrorKind::eval, "sweep: a tape rhs holds no Let/OneHot");
    }
  }
}

void eval2_tree(double x, const DeltaNode* u, std::vector<double>& acc, Ledger& ledger) {
  std::vector<std::pair<double, const DeltaNode*>> stack = {{x, u}};
  while (!stack.empty()) {
    const auto [s, at] = stack.back();
    stack.pop_back();
    switch (at->kind) {
    case DK::zero: // eval_2 x Zero v = v
      ledger.fire(Rule::Eval2_Zero);
      break;
    case DK::onehot: { // updateAt i x v
      ledger.fire(Rule::Eval2_OneHot);
      if (at->id < 1 || static_cast<std::size_t>(at->id) > acc.size())
        throw AdsemError(ErrorKind::eval, "eval_2: OneHot index out of range");
      acc[static_cast<std::size_t>(at->id - 1)] += s;
      break;
    }
    case DK::scale:
      ledger.fire(Rule::Eval2_Scale);
      stack.emplace_back(s * at->r, at->a.get());
      break;
    case DK::add: // u1 first
      ledger.fire(Rule::Eval2_Add);
      stack.emplace_back(s, at->b.get());
      stack.emplace_back(s, at->a.get());
      break;
    case DK::var:
    case DK::let:
      throw AdsemError(ErrorKind::eval, "eval_2: Var/Let are not Delta2 constructors");
    }
  }
}

} // namespace

Delta run_delta(const Binds& binds, const Delta& result, Ledger& ledger, const Variant& v) {
  Delta out = result;
  if (v.literal_get_newest_outermost) {
    for (const auto& [id, rhs] : binds) { // oldest innermost
      ledger.fire(Rule::RunDelta_Wrap);
      out = d_let(id, rhs, out);
    }
    return out;
  }
  for (auto it = binds.rbegin(); it != binds.rend();
       ++it) { // foldl over newest-first: newest innermost
    ledger.fire(Rule::RunDelta_Wrap);
    out = d_let(it->first, it->second, out);
  }
  return out;
}

void eval_map(double x, const Delta& u, DeltaMap& m, Ledger& ledger, const Variant& v) {
  DepthBudget depth{DepthBudget::default_limit, 0, ErrorKind::eval};
  eval_tree(x, u, m, ledger, v, depth);
}

std::vector<double> sweep(double dt, const Delta& result, const Binds& binds, std::int64_t next,
                          Ledger& ledger, const Variant& v) {
  const auto size = static_cast<std::size_t>(std::max<std::int64_t>(next, 1));
  std::vector<double> grad(size, 0.0);
  std::vector<char> touched(size, 0);
  sweep_tree(dt, result.get(), grad, touched, ledger, v);
  const auto process = [&](const std::pair<std::int64_t, Delta>& b) {
    const auto i = static_cast<std::size_t>(b.first);
    if (!touched[i]) { // the "Nothing" branch: untouched ids are skipped, not multiplied by 0
      ledger.fire(Rule::Sweep_Skip);
      return;
    }
    ledger.fire(Rule::Sweep_Binding);
    const double adjoint = grad[i];
    grad[i] = 0.0; // delete id (Fig. 10)
    touched[i] = 0;
    sweep_tree(adjoint, b.second.get(), grad, touched, ledger, v);
  };
  if (v.eval_allocation_order)
    std::for_each(binds.begin(), binds.end(), process);
  else
    std::for_each(binds.rbegin(), binds.rend(), process);
  return grad;
}

void eval2(double x, const Delta& u, std::vector<double>& acc, Ledger& ledger) {
  eval2_tree(x, u.get(), acc, ledger);
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
