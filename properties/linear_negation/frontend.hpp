#pragma once
// linear-negation as the CLI and the campaign engine see it (properties/core/calculus.hpp).
// type/eval/reduce/denote take target-mode terms (Λ⊥(F'), spec §2.7: `\z:R.` is linear, write
// `\x:!R.` for an exponential real); grad takes a source term (Λ(F): `\x:R.` means `\x:!R.`).
#include "properties/core/calculus.hpp"

namespace adsem::linear_negation {

class Frontend final : public props::Frontend {
public:
  std::string type_of(const std::string& source) const override;
  props::EvalResult eval(const std::string& source,
                         const props::EvalOptions& options) const override;
  props::EvalResult reduce(const std::string& source,
                           const props::EvalOptions& options) const override;
  props::DenoteResult denote(const std::string& source,
                             const std::optional<std::vector<double>>& at) const override;
  // Mechanisms: "backprop" (default: Cor. 16's wrapper, S_bp, read-back A), "injection"
  // (read-back B, d = n), "bp" (Def. 10 on the computational graph), "forward" (Prop. 1's D→).
  props::GradResult grad(const std::string& source, const std::vector<double>& at,
                         const std::string& mechanism,
                         const props::EvalOptions& options) const override;
  std::vector<std::string> mechanisms() const override {
    return {"backprop", "injection", "bp", "forward"};
  }

private:
  // denote and grad on the large stack (syntax/linear_negation/nesting.hpp)
  props::DenoteResult denote_here(const std::string& source,
                                  const std::optional<std::vector<double>>& at) const;
  props::GradResult grad_here(const std::string& source, const std::vector<double>& at,
                              const std::string& mechanism,
                              const props::EvalOptions& options) const;
};

} // namespace adsem::linear_negation
