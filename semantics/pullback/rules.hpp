#pragma once
// The reduction rules of seed 000 (Fig. 3 L236-248, §3.4 L353-379; spec §4), every rule a named
// entry. Names are the paper's rule numbers (sub-cases as in spec §4.4), and the extensions of
// spec §4.6 [X]: 5+ (general numeric transpose), N1-N3 (numeral folding), Z1-Z7 and Sigma1-3
// (zero and sum rules), "let" (the β-reading of let) and "A*" (A-normalisation as one macro step).
#include <string>
#include <vector>

namespace adsem::pullback {

namespace rule {
// combine (§3.4 L363-365)
inline constexpr const char* beta = "1"; // (λx.S) V → S[V/x]
inline constexpr const char* proj = "2"; // π_i⟨V₁,V₂⟩ → V_i
inline constexpr const char* prim = "3"; // f̲(r̲) → f(r)
inline constexpr const char* jac = "4";  // (𝒥f̲·r̲) r̲' → 𝒥(f)(r')·r
inline constexpr const char* vjp = "5";  // (λv.(𝒥f̲·v) r̲)*·r̲'* → ((𝒥f(r))ᵀ r')*
inline constexpr const char* vjp_plus = "5+"; // [X] (λv.B)*·c* → (Bᵀc)* for B ∈ Lin_v
inline constexpr const char* compose = "6"; // (λv₁.V₁)*·((λv₂.V₂)*·V₃) → (λv₁.V₂[V₁/v₂])*·V₃
// let series (Fig. 3 "Let Series" L236-240)
inline constexpr const char* let_last = "7"; // (Ω λy.let x=E in x)·ω → (Ω λy.E)·ω
inline constexpr const char* let_split = "8"; // (Ω λy.let x=E in L)·ω → (Ω λy.⟨y,E⟩)·((Ω λw.L')·ω)
} // namespace rule

// Every rule name (coverage, docs, `adsem reduce --trace`).
const std::vector<std::string>& rule_names();
// Rules that fire only inside premises or rarely on generated terms (documented in the docs;
// coverage tests hit them with the hand-made shapes of spec §8.6).
const std::vector<std::string>& rare_rule_names();

// A rule set: the paper's (with the extensions) or a mutant (mutants.hpp).
struct Rules {
  std::string mutant;      // "" = the paper's rules; else the short mutant name
  bool bind_atoms = false; // literal ANF (App. A.2) instead of compact (ID-9)
  bool is(const char* name) const { return mutant == name; }
};

} // namespace adsem::pullback
