#pragma once
// Evaluation contexts and redexes (seed 003 lines 277-306; spec §2.5):
//
//   E      ::= [ ] | E + N | V + E | op(E) | let x:T = E in N | <E, N> | <V, E> | fst(E) | snd(E)
//            | if E_bool then M else N | f(E) | M.rd_E(x:T. N) | E.rd_V(x:T. N)
//   E_bool ::= [ ] | pred(E)                            (the boolean hole: spec §11.5)
//   R      ::= V + W | op(V) | let x:T = V in N | fst(V) | snd(V) | if b then M else N
//            | letrec f(x:T):U = M in N | f(V) | W.rd_V(x:T. N)
//   R_bool ::= pred(V)
//
// A hole is named by its path from the root (child 0 = Node::a, 1 = b, 2 = c). Contexts never
// go under a binder, so the hole sees the whole term's Γ and Φ (Lemma 3.2).
#include <optional>
#include <vector>

#include "syntax/simple_diff/ast.hpp"

namespace adsem::simple_diff {

using Path = std::vector<int>;

struct Decomposition {
  Path hole;  // where the redex sits
  Term redex; // R (a term) or R_bool (a boolean term)
};

// Lemma 3.1: the unique E[R] / E[R_bool] of a non-value term, found by following the context
// grammar in evaluation order (left to right; in rd the point before the cotangent). nullopt for
// a value.
std::optional<Decomposition> decompose(const Term& m);

// Brute force: every subterm occurrence whose path is an evaluation context (each step checked
// against the grammar on its own) and which is a redex. Lemma 3.1 says there is exactly one for a
// non-value term and none for a value.
std::vector<Decomposition> all_redex_occurrences(const Term& m);

// E[N]: the term with the subterm at `hole` replaced.
Term plug(const Term& m, const Path& hole, const Term& n);
// The subterm at `hole`.
Term subterm(const Term& m, const Path& hole);

bool is_redex(const Node& m);

} // namespace adsem::simple_diff
