#pragma once
// The two sides every simple-diff property compares, at a point x = X of a generated open term
// Γ = {x : T} ⊢ M : U: the operational semantics (with the campaign's mutant) and the model
// (denotation.hpp; interval-certified, spec §5.4), each with its way of saying "no answer".
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generators/simple_diff/terms.hpp"
#include "properties/core/property.hpp"
#include "semantics/simple_diff/machine.hpp"

namespace adsem::simple_diff::oracle {

// The operational semantics with the campaign's mutant and a fuel budget.
Options machine_options(const props::PropertyContext& context);

// φ | {x ↦ X} ⊢ M ⇒ V: the flattened value, or the error kind (domain/eval/fuel) and message.
struct Operational {
  std::optional<std::vector<double>> value;
  Type type; // T_V
  ErrorKind error = ErrorKind::eval;
  std::string message;
  // Out of the step or depth budget: no conclusion. A stuck call through clo_0 of letrec_n is
  // not unknown: it is the definite ⊥ of the approximant M^(n) (ApproximantStuck).
  bool unknown = false;
};
Operational run(const Term& m, const std::string& x, const Type& t, const std::vector<double>& at,
                const Options& options);

// The paper's book (semantics/simple_diff/rules.hpp) at the cost of `options`' book, without the
// campaign's rule counter. A book without a whole-trace entry (a rule file that replaces a Fig. 6
// clause removes R-fast) differentiates by Fig. 6 literally, whose R-let handles a let body twice:
// exponential in the lets of a trace, and an rd inside an rd symbolically evaluates to a long let
// chain (seed 003 Fig. 6; spec §4.5 "cost warning"). The paper's rules must then run literally
// too, or a budget they also exceed would be blamed on the patch.
Options paper_rules_at_same_cost(const Options& options);
bool runs_paper_rules(const Options& options);

// [[M]]{x ↦ X} in doubles, and whether a box around X is certified (inside every domain and on
// one side of every guard: spec §5.4).
struct Denotation {
  enum class Status { defined, undefined, fuel } status = Status::defined;
  std::vector<double> value;
  std::string message;
  // "" when certified; otherwise the discard reason ("branch-boundary", "domain-boundary",
  // "fuel").
  std::string uncertified;
  // Certified on the first box, which holds the finite-difference stencil.
  bool fd_safe = false;
};
Denotation denote(const Term& m, const std::string& x, const Type& t, const std::vector<double>& at,
                  bool certify = true);

// The model's J^T w of x ↦ [[M]] at X (throws model::Undefined / AdsemError(fuel)).
std::vector<double> model_vjp(const Term& m, const std::string& x, const Type& t,
                              const std::vector<double>& at, const std::vector<double>& w);

// The model's J^T w against a calculus's, component by component; a component is a sum over the
// chain rule's paths and is compared relative to their magnitudes where it differs by more than the
// derivative tolerance (props::unless_rounding_of_sums).
props::TrialResult compare_with_model_vjp(const Term& m, const std::string& x, const Type& t,
                                          const std::vector<double>& at,
                                          const std::vector<double>& w, const std::string& what_e,
                                          const std::vector<double>& actual,
                                          const std::string& what_a,
                                          const props::PropertyContext& context);

// Elementwise compare_reals; pass when all agree.
props::TrialResult compare_vectors(const std::vector<double>& expected, const std::string& what_e,
                                   const std::vector<double>& actual, const std::string& what_a,
                                   CheckKind kind, const props::PropertyContext& context);
// The same with the labels made only for a report (most comparisons agree).
using Label = std::function<std::string()>;
props::TrialResult compare_vectors(const std::vector<double>& expected, const Label& what_e,
                                   const std::vector<double>& actual, const Label& what_a,
                                   CheckKind kind, const props::PropertyContext& context);

// Surface text of "x:T. M at X" for reports.
// Between the term and its point in `describe`'s text.
inline constexpr std::string_view point_separator = "  at ";
std::string describe(const gen::OpenTerm& t, const std::vector<double>& at);

// P-OP-4's first invariant at one point: Γ = {x : t} ⊢ m and its trace c (symbolic evaluation
// of the trace term m at some ρ) evaluate alike at `at`: both ⊥, or equal values.
props::TrialResult trace_agrees_at(const Term& m, const Term& c, const std::string& x,
                                   const Type& t, const std::vector<double>& at,
                                   const props::PropertyContext& context);

// P-TY-4's conclusion (seed 003 Prop. 3.3, lines 406-410) for d = W.R_V(x:T. C): d is a trace
// term and {x : t} ⊢ d : t.
props::TrialResult check_derivative_typing(const Term& d, const std::string& x, const Type& t);

} // namespace adsem::simple_diff::oracle
