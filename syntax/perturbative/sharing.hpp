#pragma once
// Term size with and without shared nodes (spec §9.6 "term blow-up and loss of sharing"). All
// three count the same things: one node per bag and one per simple term, as tree_size does.
//  - tree_size (ast.hpp): the term as a tree (every occurrence counted);
//  - dag_size: distinct nodes as built, i.e. with the sharing the smart constructors and T_x
//    already have (a node referenced twice is counted once);
//  - hashconsed_size: distinct nodes up to structural identity, as a hash-consing table would
//    store them (identical subterms built separately are counted once; not modulo α).
// All are computed on the DAG (memoised by node identity), so they are cheap on T_x output whose
// tree is exponential.
#include "syntax/perturbative/ast.hpp"

namespace adsem::perturbative {

long dag_size(const Term& m);
long hashconsed_size(const Term& m);

} // namespace adsem::perturbative
