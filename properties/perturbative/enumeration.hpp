#pragma once
// perturbative's bounded-exhaustive inputs (properties/core/enumeration.hpp), two families of
// closed terms of the enumeration grammar (generators/perturbative/enumeration.hpp), each input
// of size n the smallest first:
//   - every closed term ⊢ M : R, the input of the checks of one closed term (adequacy,
//     round-trip, subject-reduction, step-soundness and the strategies);
//   - every closed function λy1:R. M (y1 : R ⊢ M : R), the input of ad-vs-finite-differences
//     (f at a fixed point) and of the T_x properties (lemma-5-5, tx-typing,
//     primal-is-substitution, tx-size-bound: T_y1 M).
// A property given an input of the other shape discards it with a reason, never passes it.
#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "properties/core/enumeration.hpp"
#include "properties/core/property.hpp"
#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

// The seed of the probes step-soundness and lemma-5-5 draw (probe arguments at function types,
// lemma-5-5's point and tangent) and of other-strategies-agreement's random redex choices: fixed,
// so that an enumerated term has one verdict.
inline constexpr std::uint64_t enumeration_probe_seed = 20260522;
// The point a at which ad-vs-finite-differences compares D(f, 1, a) for an enumerated f.
inline constexpr double enumeration_point = 0.5;

std::unique_ptr<props::InputEnumeration> enumeration(int max_size);

// x : σ ⊢ M : τ, the input of the T_x properties (drawn with its types, or a closed function
// λx:σ. M of the enumeration opened).
struct Opened {
  std::string x;
  Type sigma;
  Term m;
};
// An enumerated closed function: the λ, and its body opened.
struct EnumeratedFunction {
  Term f;
  Opened body;
};

// PropertyDef::check_input from a check of one input: a closed term at R (a function is a
// `function` discard), or an opened function (a closed term at R is a `not-a-function` discard).
using EnumeratedCheck =
    std::function<props::TrialResult(const props::PropertyContext&, const std::any&)>;
using TermCheck = std::function<props::TrialResult(const Term&, const props::PropertyContext&)>;
EnumeratedCheck of_closed_term(TermCheck check);
EnumeratedCheck of_opened_function(
    std::function<props::TrialResult(const Opened&, const props::PropertyContext&)> check);

} // namespace adsem::perturbative
