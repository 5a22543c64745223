#pragma once
// Ehrhard–Regnier's differential substitution ∂s/∂x·t in 𝓛_D (seed 000 App. D L808-814; spec
// §4.11: the standard ER cases and the paper's extensions to pairs, reals and primitives), taken
// of the translation P_t of a pullback-language term P, constructor by constructor of P (the
// types of P's subterms give the zeros a pair needs). With ld::denote it is the oracle of Remark
// 3.5 (L275, spec §6 P23): the Jacobian body of λy.E at V is ⟦(∂E_t/∂y·v)[V/y]⟧.
#include <string>

#include "semantics/pullback/translation.hpp"

namespace adsem::pullback::ld {

// ∂(P_t)/∂x·t; t must not mention a binder of P (a fresh variable does not).
DTerm differential_substitution(const Term& p, const std::string& x, const DTerm& t);

} // namespace adsem::pullback::ld
