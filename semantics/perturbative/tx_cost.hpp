#pragma once
// What the rules of Fig. 4 (seed 004, L211-218) imply for the SIZE of T_x M, clause by clause,
// with the linearity sugar of L165-185 (the smart constructors distribute λ, T, ι, π and the
// operator position over sums). Used by the cost property and bench/perturbative_tx_growth.cpp.
//
// For each subterm the recurrence tracks (n, u): the number of summands of T_x M and the sum of
// their tree sizes (tree_size = u + 1, one node for the bag itself, as ast.hpp counts):
//   T_x x = x                       (1, 1)
//   T_x y = ι2 y, T_x c = ι2 c      (1, 2)
//   T_x (s + N)                     (n_s + n_N, u_s + u_N)
//   T_x (F s), F ∈ {λy., ι_k, T, π_k}:  ⟨F π1 X, F π2 X⟩ with X = T_x s        (2n, 2u + 6n)
//   T_x (s N) = X ⬦ Y, X = T_x s, Y = T_x N:
//       ⟨(π1 X)(π2 Y) + π1((T(π2 X)) Y), (π2 X)(π2 Y)⟩                      (3 n_X, u')
//       u' = 2·[n_X (3 + u_Y + n_Y) + u_X] + [n_X (5 + u_Y) + u_X] + 3 n_X
// The operator position distributes, so every summand of X gets its own copy of the argument
// (π2 Y, or Y itself): the factor n_X · u_Y is where the tree grows geometrically with the nesting
// of applications (×3 per level along an argument chain f (f (… x)), spec §9.6), and the summand
// count n triples per level of operator (curried) nesting. Zeros only drop summands, so the
// recurrence is an upper bound; without zero-drops it is exact.
#include <string>

#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

struct TxSizeBound {
  double summands = 0;  // n (double: the bound itself can exceed 2^63 on deep terms)
  double tree_size = 1; // u + 1
};

// The bound for T_x M (x the variable differentiated; occurrences of x under a binder of the
// same name are other variables, as T_x's α-renaming makes them).
TxSizeBound tx_size_bound(const std::string& x, const Term& m);

} // namespace adsem::perturbative
