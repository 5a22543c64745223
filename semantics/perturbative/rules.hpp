#pragma once
// perturbative's rule book: the reduction rules of seed 004 Fig. 3 (L188-189, L206; spec §4.1),
// the [OURS] constant rules δ, δT and ν of spec §4.5, and the clauses of T_x of Fig. 4
// (L211-218), one entry each under its name, with its citation, and the derivative macro D of
// spec §2.7 (rules.cpp). Both strategies
// (strategy.hpp) and the T_x traversal (transform.hpp) fire rules only through the book;
// mutants patch it (properties/perturbative/mutants.cpp).
#include <optional>
#include <vector>

#include "semantics/perturbative/relations.hpp"

namespace adsem::perturbative {

// The paper's rules (with the erratum of spec §12.2 applied to ×2), built once.
const RulesPtr& paper_rules();
// A new book: the paper's with the patch applied.
RulesPtr patch_paper_rules(const RulesPatch& patch);

// D(f, v, a) (spec §2.7), expanded by the book's derivative macro (its entry `D`, the derived form
// π1 (T f (v, a)) with the tangent v in the FIRST slot: Tσ = (tangent, primal), L34, L38, L94).
// `grad` and the AD properties build their terms through it; the expansion is recorded (rule
// coverage). AdsemError(usage) when the book has no such entry.
Term derivative(Engine& engine, const Term& f, const Term& tangent, const Term& point);

// The value of a numeric argument (spec §4.5 δ): a bag of numerals at R, or Σ ι1 r_i + Σ ι2 q_j
// at R × R. nullopt when the argument is not such a value.
std::optional<std::vector<double>> numeric_argument(const Term& n, std::size_t arity);

} // namespace adsem::perturbative
