#pragma once
// The type system of Table 1 (seed 002 L308-316), as reconstructed in spec §3.2 [RECON] and
// checked by the algorithm of spec §3.4: synth(Γ, L, t) with L the current linear variable.
// Returns the type and the elaborated term (ES binder annotations filled in from their content).
#include <map>
#include <optional>
#include <string>

#include "syntax/linear_negation/ast.hpp"
#include "syntax/linear_negation/signature.hpp"

namespace adsem::linear_negation {

using Context = std::map<std::string, Type>; // exponential variables x^{!A}

struct Typed {
  Term term; // elaborated
  Type type;
};

struct TypeOptions {
  bool source = false; // Λ(F) only (spec §3.5): no R^⊥, no linear binders, sums at R
};

// Γ ⊢ t : A  (linear = nullopt) or Γ ⊢_z t : R^d (linear = z). Throws AdsemError(type), located.
Typed typecheck(const Term& t, const Context& gamma, const Signature& signature,
                std::optional<std::string> linear = std::nullopt, TypeOptions options = {});
// The error message, or nullopt when t is typable at `expected`.
std::optional<std::string> type_error(const Term& t, const Context& gamma, const Type& expected,
                                      const Signature& signature,
                                      std::optional<std::string> linear = std::nullopt,
                                      TypeOptions options = {});

} // namespace adsem::linear_negation
