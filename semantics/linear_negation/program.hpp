#pragma once
// Entry points shared by the front end, the properties and the tests: parse + elaborate, and the
// "function of reals" view of a closed source term that grad / denote --at take (design.md).
#include <string>
#include <vector>

#include "semantics/linear_negation/reduction.hpp"
#include "syntax/linear_negation/parser.hpp"
#include "syntax/linear_negation/typecheck.hpp"

namespace adsem::linear_negation {

// Parse, type-check in Γ and elaborate; binders made unique (spec §4.1).
Typed parse_elaborated(const std::string& text, Mode mode, const Context& gamma = {});
// Type-check and elaborate a built term (throws AdsemError(type)).
Typed elaborate(const Term& t, const Context& gamma = {}, bool source = false);
// elaborate's renaming without its type check, for a term built with every binder typed: t with
// its binders made unique (none bound twice, nor bound and free; Γ's names taken), t itself when
// they are.
Term with_unique_binders(const Term& t, const Context& gamma = {});

// A closed source term f : R -> … -> R -> R (curried) or E -> R (E a product of R's) as
// x1..xn : R ⊢ body : R.
struct RealFunction {
  Term body;
  std::vector<std::string> inputs;
};
RealFunction real_function(const Typed& f);

// The closed Euclidean result of normalising t, or AdsemError(eval) naming the stuck normal form.
std::vector<double> ground_result(const Run& run);

} // namespace adsem::linear_negation
