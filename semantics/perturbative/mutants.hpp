#pragma once
// Deliberately wrong rule tables (design.md "Mutants"), each replacing ONE named entry of
// rules.hpp / transform.hpp. The catalogue (bug class, expected killers) is in
// properties/perturbative/mutants.cpp.
#include <string>
#include <vector>

#include "semantics/core/tags.hpp"
#include "semantics/perturbative/rules.hpp"

namespace adsem::perturbative {

namespace mutant {
// T_x y = ⟨y, y⟩: every variable treated as perturbed (perturbation confusion, L48-55).
inline constexpr const char* tx_perturbs_free_variables = "perturbative/tx-perturbs-free-variables";
// ⬦ without π1((T(π2 M)) N): the chain-rule term dropped (spec §9.14).
inline constexpr const char* diamond_drops_chain_rule = "perturbative/diamond-drops-chain-rule";
// T_x (ι2 s) = ⟨0, ι2(π2(T_x s))⟩: the tangent of the second component dropped.
inline constexpr const char* inj2_drops_tangent = "perturbative/inj2-drops-tangent";
// τ_sin uses sin for sin' (a wrong derivative template).
inline constexpr const char* sin_derivative_is_sin = "perturbative/sin-derivative-is-sin";
// T_x x = ⟨π2 x, π1 x⟩: (primal, tangent) read for (tangent, primal) (spec §9.1 orientation).
inline constexpr const char* tangent_primal_swapped = "perturbative/tangent-primal-swapped";
// (×2) π_k(ι_l s) → s instead of 0 (where σ_k = σ_l, so the term stays well typed; otherwise 0).
inline constexpr const char* times2_keeps_operand = "perturbative/times2-keeps-operand";
// The derivative macro D(f, v, a) = π1 (T f (v, a)) used with its slots swapped: π1 (T f (a, v)).
inline constexpr const char* d_macro_slots_swapped = "perturbative/d-macro-slots-swapped";
// The MODEL with a single untagged ε for every 𝒯 (spec §5.3 negative control (a), L50-54).
inline constexpr const char* model_untagged = "perturbative/model-untagged";
// The MODEL with fresh tags but no renaming in extract (spec §5.3 negative control (b), M15).
inline constexpr const char* model_fresh_tag_no_swap = "perturbative/model-fresh-tag-no-swap";
} // namespace mutant

const std::vector<std::string>& mutant_names();

// The rules for a mutant full name ("" = paper_rules()); AdsemError(usage) if unknown.
Rules rules_for(const std::string& mutant_name);

// The model's perturbation mode under a mutant: the two model mutants select the negative controls
// of spec §5.3; every other name (and "") gives the correct model.
model::PerturbationMode model_mode(const std::string& mutant_name);

} // namespace adsem::perturbative
