#pragma once
// Targeted instances of a pullback user rule (rule_adapter.hpp): a random context C with one hole
// of the rule's type, built around pullback's own generators (generators/pullback/terms.hpp), and
// random terms for the metavariables over the variables they may mention.
//
// The context is a stack of frames from the hole outwards, each the way the calculus consumes a
// term of that type: a Euclidean hole sits wherever pullback's diff-friendly generator puts an
// atom (under its let and λ binders), possibly inside the body of a pullback (Ω λy.[ ])·ω (so
// under the binder y, and differentiated); a function is applied; a 1-form is the ω of a
// gradient query; a covector is the functional of a dual map, a summand, or the value of a
// 1-form λu.[ ] (under u). The program C has one free variable a0 : R or R² and a type that is
// Euclidean or the dual σ* of a Euclidean σ (so that its values are compared completely).
#include <string>
#include <vector>

#include "properties/pullback/rule_pattern.hpp"

namespace adsem::pullback {

// Can a hole / a metavariable of this type be placed / generated? (compile-time checks)
bool can_generate(const Type& t);
bool can_place(const Type& t);

struct RuleInstance {
  std::string a = "a0"; // the context's free variable
  Type sigma_a;
  Term point;                    // a numeral tuple of sigma_a
  Type type;                     // of C[σ(LHS)], Euclidean or a Euclidean dual
  Term lhs, rhs;                 // σ(LHS), σ(RHS)
  Term before, after;            // C[σ(LHS)], C[σ(RHS)]
  std::vector<double> cotangent; // for the gradient query when `type` is Euclidean
  std::string report;
};

// Draws an instance (RapidCheck draws: shrinks with the trial) with rule_instance_kit.hpp's
// drawer, then the cotangent.
RuleInstance draw_instance(const Pattern& p);

} // namespace adsem::pullback
