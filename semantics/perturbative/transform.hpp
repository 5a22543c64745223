#pragma once
// The meta-level transformation T_x of seed 004 Fig. 4 (L211-218; spec §4.2) and the
// application-pushforward M ⬦ N (L217). Each clause of Fig. 4 is one named entry of TxRules, so a
// mutant can replace exactly one clause. T_x 0 = 0 and T_x (s + N) = T_x s + T_x N are the
// traversal itself (T_x is additive).
#include <functional>
#include <string>

#include "semantics/core/work_budget.hpp"
#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

struct TxRules {
  // T_x x = x  (x now has type Tσ)
  std::function<Bag(const Simple& x, const Type& tangent_sigma)> var_self;
  // T_x y = ι2 y = ⟨0, y⟩  (y ≠ x: every other variable is a constant; spec §4.3)
  std::function<Bag(const Simple& y)> var_other;
  // T_x (λy.s) = ⟨λy.π1(T_x s), λy.π2(T_x s)⟩  (Prop 3.9, L112-114)
  std::function<Bag(const Simple& lam, const Bag& tx_body)> lam;
  // T_x (s N) = (T_x s) ⬦ (T_x N)  (eq. (3), Lemma 5.3)
  std::function<Bag(const Bag& tx_operator, const Bag& tx_argument)> app;
  // T_x (ι_k s) = ⟨ι_k(π1(T_x s)), ι_k(π2(T_x s))⟩
  std::function<Bag(const Simple& inj, const Bag& tx_operand)> inj;
  // T_x (T s) = ⟨T(π1(T_x s)), T(π2(T_x s))⟩  (𝒯 is linear, Thm 3.10)
  std::function<Bag(const Simple& push, const Bag& tx_operand)> push;
  // T_x (π_k s) = ⟨π_k(π1(T_x s)), π_k(π2(T_x s))⟩
  std::function<Bag(const Simple& proj, const Bag& tx_operand)> proj;
  // [OURS] T_x c = ι2 c for numerals and primitives (spec §12.7)
  std::function<Bag(const Simple& c)> constant;
};

// The clauses exactly as printed in Fig. 4.
TxRules paper_tx_rules();

// M ⬦ N := ⟨(π1 M)(π2 N) + π1((T(π2 M)) N), (π2 M)(π2 N)⟩  (L217; spec §9.14: T of the primal
// function is applied to the WHOLE pair N).
Bag diamond(const Bag& m, const Bag& n);

// T_x M for Γ; x:σ ⊢ M : τ, giving Γ; x:Tσ ⊢ T_x M : Tτ (Lemma 4.1(b)). The output can be
// exponential in M (spec §9.6): with `work`, every clause spends the summands it builds there, so
// an evaluator's fuel bounds the construction too.
Bag transform(const std::string& x, const Type& sigma, const Bag& m, const TxRules& rules,
              WorkBudget* work = nullptr);

} // namespace adsem::perturbative
