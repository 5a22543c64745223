#pragma once
// The pullback calculus as the CLI and the campaign engine see it (properties/core/calculus.hpp):
// type (strict lin), eval / reduce (the strategy of semantics/pullback/strategy.hpp, rule by
// rule), denote (the model of spec §5.3) and grad (the calculus's own reverse mode: the normal
// form of the gradient query ((Ω λx.P)·Ω[1]) V for f = λx.P, Cor. 4.8(1)).
#include "properties/core/calculus.hpp"
#include "semantics/pullback/rules.hpp"
#include "syntax/pullback/ast.hpp"

namespace adsem::pullback {

// Parse, give zeros their types, and type-check (strict lin). AdsemError with line:column.
Term parse_closed(const std::string& source);
// The rules of a mutant given by its full or short name ("" = the paper's rules).
Rules rules_for(const std::string& mutant);

// For a closed f : σ ⇒ R (σ Euclidean) or R ⇒ … ⇒ R ⇒ R: λp:σ'. f … with σ' Euclidean.
struct Tupled {
  Term function;
  Type domain;
};
Tupled tupled_real_function(const Term& f);
// The gradient query ((Omega \x:σ. P) @ Omega[c]) V for f = \x:σ. P (the paper's form), else
// the η-expanded query below.
Term gradient_query(const Tupled& f, const std::vector<double>& cotangent,
                    const std::vector<double>& at);
// ((Omega \y:σ. f y) @ Omega[c]) V: f's λ sits inside the differentiated body (rule 19b).
Term eta_gradient_query(const Tupled& f, const std::vector<double>& cotangent,
                        const std::vector<double>& at);

class Frontend final : public props::Frontend {
public:
  std::string type_of(const std::string& source) const override;
  props::EvalResult eval(const std::string& source,
                         const props::EvalOptions& options) const override;
  props::EvalResult reduce(const std::string& source,
                           const props::EvalOptions& options) const override;
  props::DenoteResult denote(const std::string& source,
                             const std::optional<std::vector<double>>& at) const override;
  // Mechanisms: "pullback" (default, compact ANF), "pullback-literal-anf" (App. A.2 ANF) and the
  // extension "pullback-sparse" (flat stages, sparse covectors:
  // semantics/pullback/sparse_stages.hpp; the paper's rules outside the first-order Euclidean
  // fragment).
  props::GradResult grad(const std::string& source, const std::vector<double>& at,
                         const std::string& mechanism,
                         const props::EvalOptions& options) const override;
  std::vector<std::string> mechanisms() const override {
    return {"pullback", "pullback-literal-anf", "pullback-sparse"};
  }
};

} // namespace adsem::pullback
