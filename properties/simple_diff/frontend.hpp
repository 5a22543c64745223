#pragma once
// The simple-diff calculus as the CLI and the campaign engine see it (properties/core/
// calculus.hpp): type, eval, reduce, grad, denote on source text.
#include "properties/core/calculus.hpp"

namespace adsem::simple_diff {

class Frontend final : public props::Frontend {
public:
  std::string type_of(const std::string& source) const override;
  props::EvalResult eval(const std::string& source,
                         const props::EvalOptions& options) const override;
  props::EvalResult reduce(const std::string& source,
                           const props::EvalOptions& options) const override;
  props::DenoteResult denote(const std::string& source,
                             const std::optional<std::vector<double>>& at) const override;
  // The paper's binder form `(x:T. N)` (parentheses optional), N : real, |T| = at.size().
  // Mechanisms: "rd" (default; rd with the linear-size differentiation R-fast) and
  // "rd-literal" (rd with Fig. 6 applied literally).
  props::GradResult grad(const std::string& source, const std::vector<double>& at,
                         const std::string& mechanism,
                         const props::EvalOptions& options) const override;
  std::vector<std::string> mechanisms() const override { return {"rd", "rd-literal"}; }
  // The properties report their input as `x:T. M  at X` (oracle::describe): M evaluated with x
  // bound to X, the trace on.
  std::vector<std::string> trace_counterexample(const reports::CounterexampleRecord& record,
                                                const props::EvalOptions& options) const override;
};

} // namespace adsem::simple_diff
