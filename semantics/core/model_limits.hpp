#pragma once
// The numeric models' limits (docs/reliability.md "Resource limits"). A denotation recurses on
// the term, so it enters the nesting guard at every node; and its work is not the reduction's: an
// abstraction applied inside an abstraction runs its body again at every application, so ⟦t⟧ of
// a term of size O(n) can visit 2^n nodes (f_k = λy. f_{k-1} (f_{k-1} y), k = 1..30, ran for
// minutes in every model, and a trial doing that is killed as a `timeout` counterexample). Each
// node visited, its closures' later applications (probes) included, counts against a work cap;
// past it, a fuel error that WorkBudget::ran_over recognises: a counted discard, never a verdict.
#include <memory>
#include <optional>

#include "semantics/core/work_budget.hpp"
#include "syntax/core/depth_guard.hpp"

namespace adsem::model {

// Nodes one denotation context may visit (about 0.6 to 1.5 s of CPU). A context shared by the
// denotations of one trial shares the cap among them.
inline constexpr long work_cap = 20'000'000;

struct Limits {
  std::shared_ptr<DepthBudget> depth =
      std::make_shared<DepthBudget>(DepthBudget{DepthBudget::default_limit, 0, ErrorKind::eval});
  std::shared_ptr<WorkBudget> work = std::make_shared<WorkBudget>(work_cap, 1);
};

// Entering one node of a denotation: one level of the nesting guard, one unit of work.
class NodeVisit {
public:
  NodeVisit(const Limits& limits, std::optional<SourcePos> pos = std::nullopt)
      : guard_(*limits.depth, pos) {
    limits.work->spend(1, "the denotation (the numeric model's ⟦−⟧)");
  }

private:
  DepthGuard guard_;
};

} // namespace adsem::model
