#pragma once
// The perturbative calculus as the CLI and the campaign engine see it (properties/core/
// calculus.hpp): type, eval (reference normaliser, spec §4.7), reduce (small-step with the rule
// trace), denote (the model of spec §5.3) and grad (the calculus's own T: gradients are the
// normal forms of π1(T f (e_i, a)), spec §8 E2).
#include "properties/core/calculus.hpp"
#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

// Parse and elaborate a closed term (AdsemError with line:column on failure).
Term parse_closed(const std::string& source);

// For a closed f : R → R, R × … × R → R (any bracketing) or R → … → R → R, the tupled function
// λp:σ. f … as a term, with σ the product of the inputs; throws AdsemError(type) otherwise.
struct Tupled {
  Term function; // : σ → R
  Type domain;   // σ (R or a product tree of R)
  std::size_t inputs = 0;
};
Tupled tupled_real_function(const Term& f);
// A ground value of type σ (R or a product tree of R) holding xs left to right.
Term ground_value(const Type& sigma, const std::vector<double>& xs);

class Frontend final : public props::Frontend {
public:
  std::string type_of(const std::string& source) const override;
  props::EvalResult eval(const std::string& source,
                         const props::EvalOptions& options) const override;
  props::EvalResult reduce(const std::string& source,
                           const props::EvalOptions& options) const override;
  props::DenoteResult denote(const std::string& source,
                             const std::optional<std::vector<double>>& at) const override;
  // Mechanisms: "pushforward" (default; π1(T f (e_i, a)) by the reference normaliser) and
  // "small-step" (the same terms by leftmost-innermost small steps).
  props::GradResult grad(const std::string& source, const std::vector<double>& at,
                         const std::string& mechanism,
                         const props::EvalOptions& options) const override;
  std::vector<std::string> mechanisms() const override { return {"pushforward", "small-step"}; }
};

} // namespace adsem::perturbative
