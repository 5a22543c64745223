#pragma once
// The reduction rules of seed 004 Fig. 3 (L188-189, L206; spec §4.1) and the [OURS] constant rules
// of spec §4.5, each one named entry of a table. A mutant replaces one entry (mutants.hpp). Both
// strategies (strategy.hpp) contract redexes only through `contract` and `nu`.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "semantics/perturbative/transform.hpp"

namespace adsem::perturbative {

namespace rule {
inline constexpr const char* beta = "beta";       // (β)   (λx.s) N → s[N/x]
inline constexpr const char* times1 = "times1";   // (×1)  π_k(ι_k s) → s
inline constexpr const char* times2 = "times2";   // (×2)  π_k(ι_l s) → 0 : σ_k
inline constexpr const char* push = "T";          // (T)   T(λx.s) → λx.T_x s
inline constexpr const char* delta = "delta";     // (δ)   p N → numeral(p(v))     [OURS]
inline constexpr const char* delta_t = "delta-T"; // (δT)  T p → τ_p               [OURS]
inline constexpr const char* nu = "nu";           // (ν)   L[r1] + L[r2] → L[r1+r2] [OURS]
} // namespace rule

// Every rule name, in the order above (for coverage and docs).
const std::vector<std::string>& rule_names();

struct Rules {
  std::function<Bag(const Simple& lam, const Bag& argument)> beta;
  std::function<Bag(const Simple& inj)> times1;
  std::function<Bag(const Simple& proj, const Simple& inj)> times2;
  // T_x from `tx` below; its construction spends `work` (nullptr: unbounded)
  std::function<Bag(const Simple& lam, const TxRules& tx, WorkBudget* work)> push;
  std::function<std::optional<Bag>(const Simple& prim, const Bag& argument)> delta;
  std::function<std::optional<Bag>(const Bag& bag)> nu; // one merge, or nullopt
  TxRules tx;                                           // Fig. 4, used by (T)
  // (δT): the source of τ_p, or nullopt when p has no template (T p is then stuck).
  std::function<std::optional<std::string>(const std::string& prim)> template_source;
  // [OURS] the derivative macro D (spec §2.7): D(f, v, a) := π1 (T f (v, a)), the tangent v in the
  // FIRST slot (Tσ = (tangent, primal), L34, L38, L94). `grad` and the AD properties build their
  // terms through it, so a mutant can misuse the slots.
  std::function<Bag(const Bag& f, const Bag& tangent, const Bag& point)> derivative;
};

// The rules as the paper prints them (with the erratum of spec §12.2 applied to ×2).
Rules paper_rules();

// The value of a numeric argument (spec §4.5 δ): a bag of numerals at R, or Σ ι1 r_i + Σ ι2 q_j
// at R × R. nullopt when the argument is not such a value.
std::optional<std::vector<double>> numeric_argument(const Bag& n, std::size_t arity);

struct Contraction {
  std::string rule;
  Bag result;
};
// Contract s at its root when it is a redex of β, ×1, ×2, T, δ or δT; the T_x of (T) spends
// `work`.
std::optional<Contraction> contract(const Simple& s, const Rules& rules,
                                    WorkBudget* work = nullptr);

} // namespace adsem::perturbative
