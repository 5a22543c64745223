#pragma once
// Named mutants of this calculus (design.md "Mutants"): each flag replaces one rule by a wrong
// variant from a real AD bug class. The un-mutated calculus is Variant{}.
#include <memory>
#include <string>
#include <vector>

#include "semantics/core/rule_counter.hpp"

namespace adsem::delta_reverse {

namespace mutant {
inline constexpr const char* eval_overwrites = "delta-reverse/eval-overwrites-on-fan-out";
inline constexpr const char* eval_allocation_order = "delta-reverse/eval-in-allocation-order";
inline constexpr const char* case_loses_sum_tag = "delta-reverse/case-loses-sum-tag";
inline constexpr const char* partials_swapped = "delta-reverse/partials-swapped";
inline constexpr const char* literal_get_order = "delta-reverse/paper-literal-get-newest-outermost";
inline constexpr const char* literal_fig14_dy = "delta-reverse/paper-literal-fig14-pure-dy";
inline constexpr const char* literal_outside_rundelta =
    "delta-reverse/paper-literal-drev-applied-outside-rundelta";
} // namespace mutant

struct Variant {
  // eval-Var / sweep-Var: m[id] := x instead of m[id] += x (Fig. 10 addDelta)
  bool eval_overwrites = false;
  // bindings processed oldest first instead of newest first (L540-571, spec §9.2)
  bool eval_allocation_order = false;
  // the gradient of a sum-typed input is read back with the first summand's tag, whatever the
  // input's tag (the paper's point on zero_S, L358-362: the tag must come from the actual input)
  bool case_loses_sum_tag = false;
  // mulR's partial derivatives swapped: d/dx1 = x1, d/dx2 = x2 (the J-versus-Jᵀ class)
  bool partials_swapped = false;
  // Fig. 13's get (L769-771) read literally: runDelta puts the newest binding outermost
  bool literal_get_newest_outermost = false;
  // Fig. 14 (L841) as printed: pure ((y1, dy1), ...), the DeltaId where a Delta belongs
  bool literal_fig14_pure_dy = false;
  // Fig. 11/15 (L554, L913) read literally: Drev{e} run outside the runDelta that runs g s0, so
  // bindings allocated before the λ is applied are lost (spec §11 item 6, Ex. 12)
  bool literal_drev_outside_rundelta = false;
  // Not a mutation: where the wrappers' ledgers count rule firings for a campaign's rule coverage
  // (Ledger::coverage); null outside campaigns.
  std::shared_ptr<RuleCounter> coverage = nullptr;
};

// The variant of a full mutant name ("" = the paper's rules); throws AdsemError(usage) if unknown.
Variant variant_for(const std::string& mutant);
std::vector<std::string> mutant_names();

} // namespace adsem::delta_reverse
