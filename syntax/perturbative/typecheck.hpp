#pragma once
// The type system of seed 004 Fig. 1 (L145-164, L186; spec §3) on the annotated AST: re-derives
// the type of every node from its children and compares it with the annotation. Used after every
// reduction step (subject reduction, Lemma 4.1(d)) and on the output of T_x (Lemma 4.1(b)).
#include <optional>
#include <string>

#include "syntax/perturbative/parser.hpp"

namespace adsem::perturbative {

// The first typing error found, or nullopt when Γ ⊢ M : M.type holds.
std::optional<std::string> type_error(const Term& m, const Context& gamma,
                                      const ConstantTypes& constants);

} // namespace adsem::perturbative
