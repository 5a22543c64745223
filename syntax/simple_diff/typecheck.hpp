#pragma once
// The type system of seed 003 Fig. 1 (lines 152-183), reconstructed as in spec §3:
// Φ | Γ ⊢ M : T and Φ | Γ ⊢ B. Typing is unique (line 183), so the checker synthesises the type
// and fills in the pair and projection annotations <M,N>_{T,U}, fst_{T,U}, snd_{T,U} that
// symbolic differentiation needs (line 110). Errors are AdsemError(ErrorKind::type) located
// at the offending subterm.
#include <string>
#include <utility>
#include <vector>

#include "syntax/simple_diff/ast.hpp"
#include "syntax/simple_diff/signature.hpp"

namespace adsem::simple_diff {

// Γ = x_0:T_0, ...   (later entries override earlier ones)
using TypeContext = std::vector<std::pair<std::string, Type>>;
// Φ = f_0:T_0 → U_0, ...
struct FunType {
  Type param;
  Type result;
};
using FunContext = std::vector<std::pair<std::string, FunType>>;

struct Typed {
  Term term; // elaborated: every pair/fst/snd annotated
  Type type;
};

Typed typecheck(const Term& m, const Signature& signature, const TypeContext& gamma = {},
                const FunContext& phi = {});

} // namespace adsem::simple_diff
