#pragma once
// The strategy of seed 002's §6 efficiency remark (L632-644; spec §6 P25): D(L) is not β-normal,
// and S_bp copies it by (9) once per application before reducing each copy; reducing it to its
// normal form M first, once, saves about k·(n-1) steps for n copies, k the steps of D(L) →* M.
// The reduction is still βℓ (rules fire under λ in any context, Table 2): only the order differs.
#include "semantics/linear_negation/reduction.hpp"

namespace adsem::linear_negation {

struct ContentsFirst {
  Term term;         // t with each exponential ES content that is an abstraction normalised
  long steps = 0;    // the steps those normalisations took
  long contents = 0; // how many contents were normalised
};

// Every content v of an exponential ES t'[x := v] of t that is an abstraction, replaced by its
// normal form under `options`' strategy (the types of the variables bound above it taken from
// their binders, beside options.free_types). An outer content is normalised whole, inner ones
// with it.
ContentsFirst normalise_contents_first(const Term& t, const RunOptions& options);

} // namespace adsem::linear_negation
