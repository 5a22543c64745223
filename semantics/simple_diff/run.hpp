#pragma once
// Entry points of the operational semantics of simple-diff (seed 003 Section 3): evaluation,
// symbolic evaluation, symbolic differentiation and gradients, each with its own Machine
// (step budget, rule trace, rule table from Options).
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "semantics/simple_diff/machine.hpp"
#include "syntax/simple_diff/parser.hpp"
#include "syntax/simple_diff/typecheck.hpp"

namespace adsem::simple_diff {

// The shared primitive table as a Signature (operations.hpp).
const Signature& primitives();

// Parse and type-check with the primitive table; Γ types the free variables.
Typed check_source(std::string_view source, const TypeContext& gamma = {});

// ρ for terms with free variables.
using ValueContext = std::vector<std::pair<std::string, Value>>;
TypeContext types_of(const ValueContext& rho);

struct Outcome {
  Value value;
  long steps = 0;
  std::vector<TraceLine> trace;
};

// φ | ρ ⊢ M ⇒ V for a type-checked M (φ empty).
Outcome evaluate(const Term& m, const Options& options = {}, const ValueContext& rho = {});

// evaluate, except that a call through clo_0 (M^(n) stuck, seed 003 Fig. 8) and O-op's domain
// error outside its primitive's domain are returned, not thrown: adequacy trials meet them often,
// and their throw, re-thrown across the large stack, was a measurable share of their time. Every
// other error still throws.
struct Evaluation {
  std::optional<Outcome> outcome; // set unless stuck
  std::optional<ApproximantStuck> stuck;
  std::optional<AdsemError> domain_error; // the AdsemError evaluate throws for it
};
Evaluation evaluate_unless_stuck(const Term& m, const Options& options = {},
                                 const ValueContext& rho = {});

struct TraceOutcome {
  Term trace; // the trace term C
  long steps = 0;
  std::vector<TraceLine> rules;
};
// φ | ρ ⊢ M ⇝ C for a type-checked M (φ empty).
TraceOutcome symbolic_evaluate(const Term& m, const ValueContext& rho, const Options& options = {});

// W.R_V(x:T. C) for a type-checked trace term C (Γ[x:T] ⊢ C : U) and open values V, W.
TraceOutcome symbolic_derivative(const Term& w, const Term& v, const std::string& x, const Type& t,
                                 const Term& c, const Options& options = {});

struct GradientOutcome {
  Value value;    // N at x = V
  Value gradient; // 1.rd_V(x:T. N)
  long steps = 0;
};
// The gradient of x:T. N at the point with flattened coordinates `at` (|T| of them), computed
// with the calculus's own rd: grad_V(x:T. N) = 1.rd_V(x:T. N) (line 140). N must be real.
GradientOutcome gradient(const std::string& x, const Type& t, const Term& body,
                         const std::vector<double>& at, const Options& options = {});

} // namespace adsem::simple_diff
