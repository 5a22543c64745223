#pragma once
// The meta-level transformation T_x of seed 004 Fig. 4 (L211-218; spec §4.2) and the
// application-pushforward M ⬦ N (L217). T_x 0 = 0 and T_x (s + N) = T_x s + T_x N are the
// traversal itself (T_x is additive); at each simple term the book's Tx relation picks the clause
// of Fig. 4 (rules.cpp), so a mutant can replace exactly one clause.
#include <string>

#include "semantics/perturbative/relations.hpp"

namespace adsem::perturbative {

// M ⬦ N := ⟨(π1 M)(π2 N) + π1((T(π2 M)) N), (π2 M)(π2 N)⟩  (L217; spec §9.14: T of the primal
// function is applied to the WHOLE pair N).
Term diamond(const Term& m, const Term& n);

// T_x M for Γ; x:σ ⊢ M : τ, giving Γ; x:Tσ ⊢ T_x M : Tτ (Lemma 4.1(b)), through the engine's
// book. The output can be exponential in M (spec §9.6): every clause spends the summands it
// builds on the engine's work cap, so an evaluator's fuel bounds the construction too.
Term transform(Engine& engine, const std::string& x, const Type& sigma, const Term& m);
// The same with a book alone (nullptr work: unbounded).
Term transform(const Rules& book, const std::string& x, const Type& sigma, const Term& m,
               WorkBudget* work = nullptr);

// The book's clause for one simple term s whose subterms' T_x are given (tx_operand, tx_argument
// as in Tx::Redex); e.g. for an application, the book's X ⬦ Y. AdsemError(internal) when no
// clause fires.
Term tx_clause(const Rules& book, const std::string& x, const Type& sigma, const Simple& s,
               const Term* tx_operand, const Term* tx_argument = nullptr);

} // namespace adsem::perturbative
