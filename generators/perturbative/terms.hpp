#pragma once
// RapidCheck generators of well-typed perturbative terms, BY CONSTRUCTION (type-directed, spec
// §10): gen(Γ, σ, d) only ever builds terms of type σ in Γ, through the smart constructors of the
// AST, so every sample is well typed and sugar-normal. Sized by depth; typed shrinking (replace a
// subterm by 0 or by a same-typed subterm, drop summands, contract a β-redex, numerals to 1).
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "syntax/perturbative/parser.hpp"

namespace adsem::perturbative::gen {

// The type pool of spec §10 (intermediate and test types).
const std::vector<Type>& type_pool();
// Types built from R and × only (for adequacy at ground type).
const std::vector<Type>& ground_pool();

// A term of type sigma in context gamma (variables of gamma may occur free).
rc::Gen<Term> term(Context gamma, Type sigma, int max_depth = 3);
// A closed term of a type drawn from `types`.
rc::Gen<Term> closed_term(std::vector<Type> types, int max_depth = 3);

// Typed shrinks of m (each of m's type, same free variables or fewer).
std::vector<Term> shrinks(const Term& m);

// Constructs m contains, for campaign statistics: "T", "nested-T", "lambda", "higher-order",
// "sum", "pair".
std::vector<std::string> tags_of(const Term& m);

} // namespace adsem::perturbative::gen

namespace adsem::perturbative {
// How RapidCheck shows the values drawn from these generators (found by argument-dependent
// lookup): a trial that throws before it reports its input is recorded with this text
// (properties/core/campaign.cpp, drawn_values_text); without it RapidCheck prints "<???>".
void showValue(const Term& m, std::ostream& os); // M : A
} // namespace adsem::perturbative
