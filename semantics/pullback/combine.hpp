#pragma once
// Combine: the redexes of seed 000 §3.4 (L363-375) and the extensions of spec §4.6 [X], each
// rule's result under its paper name and the side conditions the book (rules.cpp) states with
// them. The strategy (strategy.cpp) presents a redex whose evaluation-position subterms are values.
#include <functional>

#include <Eigen/Core>

#include "semantics/pullback/relations.hpp"

namespace adsem::pullback {

// How reverse accumulation (rules 5, 5⁺) pulls a cotangent back: through a primitive's Jacobian
// J at r (as printed: Jᵀ ct), and over the summands of B₁ + … + Bₙ (as printed: every summand's
// Bᵢᵀ ct is accumulated).
struct Adjoint {
  std::function<Eigen::VectorXd(const Eigen::MatrixXd& j, const Eigen::VectorXd& ct)> through =
      [](const Eigen::MatrixXd& j, const Eigen::VectorXd& ct) -> Eigen::VectorXd {
    return j.transpose() * ct;
  };
  std::size_t summands = static_cast<std::size_t>(-1); // how many summands of a sum accumulate
};

// Side conditions.
// (λv.(𝒥f̲·v) r̲)*·r̲'*, the redex of rule 5
bool is_vjp_redex(const Term& t);
// (λv.B)*·c*, B ∈ Lin_v with no other free variable: the redex of 5⁺
bool is_linear_transpose_redex(const Term& t);
// No summand is 0 or a sum (else Z7 flattens first).
bool is_flat_sum(const Term& t);
// Two numerals (N1), two pairs (N2), two covectors of one type (N3) among the summands.
bool sums_numerals(const Term& t);
bool sums_pairs(const Term& t);
bool sums_covectors(const Term& t);

namespace rules {

using CombineResult = Rule<Combine>::Result;

Term rule_1(Machine&, const Combine::Redex&, const RuleInfo&);
Term rule_2(Machine&, const Combine::Redex&, const RuleInfo&);
Term rule_3(Machine&, const Combine::Redex&, const RuleInfo&);
Term rule_4(Machine&, const Combine::Redex&, const RuleInfo&);
// Rules 5 and 5⁺: (λv.B)*·c* → (Bᵀc)*, by reverse accumulation over B.
CombineResult transpose(Adjoint adjoint);
Term rule_6(Machine&, const Combine::Redex&, const RuleInfo&);
Term let_beta(Machine&, const Combine::Redex&, const RuleInfo&);
Term n1(Machine&, const Combine::Redex&, const RuleInfo&);
Term n2(Machine&, const Combine::Redex&, const RuleInfo&);
Term n3(Machine&, const Combine::Redex&, const RuleInfo&);
// N1 again and again at the same sum until one numeral is left (refocusing; Combine::Extra).
long fuse_numerals(Term& sum);
Term zero_of_type(Machine&, const Combine::Redex&, const RuleInfo&); // Z1, Z2, Z3
Term z4(Machine&, const Combine::Redex&, const RuleInfo&);
Term zero_covector(Machine&, const Combine::Redex&, const RuleInfo&); // Z5, Z6
Term z7(Machine&, const Combine::Redex&, const RuleInfo&);
Term sigma1(Machine&, const Combine::Redex&, const RuleInfo&);
Term sigma2(Machine&, const Combine::Redex&, const RuleInfo&);
Term sigma3(Machine&, const Combine::Redex&, const RuleInfo&);

} // namespace rules

} // namespace adsem::pullback
