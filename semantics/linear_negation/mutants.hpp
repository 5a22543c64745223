#pragma once
// Names of the mutants (properties/linear_negation/mutants.cpp describes them) and the rule and
// transformation settings each one selects.
#include <string>

#include "semantics/linear_negation/reduction.hpp"
#include "semantics/linear_negation/transform.hpp"

namespace adsem::linear_negation::mutant {

inline constexpr const char* linear_factoring_disabled =
    "linear-negation/linear-factoring-disabled";
inline constexpr const char* d_mul_drops_product_term = "linear-negation/d-mul-drops-product-term";
inline constexpr const char* equivalence_duplicates_substitution =
    "linear-negation/equivalence-duplicates-substitution";
inline constexpr const char* gradient_read_from_wrong_component =
    "linear-negation/gradient-read-from-wrong-component";
inline constexpr const char* paper_literal_prop1_seed = "linear-negation/paper-literal-prop1-seed";
inline constexpr const char* paper_literal_prop17_recurrence =
    "linear-negation/paper-literal-prop17-recurrence";

inline RuleSet rules_for(const std::string& m) {
  RuleSet r;
  r.factoring = m != linear_factoring_disabled;
  r.duplicate_pair_stack = m == equivalence_duplicates_substitution;
  return r;
}
inline TransformOptions transform_for(const std::string& m, int d = 1) {
  TransformOptions o;
  o.d = d;
  o.mul_drops_product_term = m == d_mul_drops_product_term;
  return o;
}
inline bool wrong_component(const std::string& m) {
  return m == gradient_read_from_wrong_component;
}

} // namespace adsem::linear_negation::mutant
